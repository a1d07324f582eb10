// crm accounts: the group, its CRUD commands declared from the registry's account (no code of their
// own); view is ./view/.

import { DEMO } from '../../registry/demo.js';
import { example as ex } from '../../registry/types.js';
import type { Command } from '../command.js';
import { crud } from '../crud.js';
import view from './view/command.js';

export const ACCOUNTS: readonly Command[] = crud('account', {
  list: [ex('crm accounts list --industry Software', 'accounts in one industry', { tool: { industry: 'Software' } })],
  get: [ex(`crm accounts get ${DEMO.account}`, 'one account', { tool: { id: DEMO.account } }), ex(`crm accounts get "${DEMO.accountName}"`, 'an account by its name')],
  create: [ex('crm accounts create --name "Analytical Engines" --domain example.com', 'create an account', { tool: { name: 'Analytical Engines', domain: 'example.com' } })],
  update: [ex(`crm accounts update ${DEMO.account} --employees 40`, 'change one field', { tool: { ids: [DEMO.account], employees: 40 } })],
  delete: [ex(`crm accounts delete ${DEMO.account} --yes`, 'delete without asking', { tool: { ids: [DEMO.account] } })],
}, { view });
