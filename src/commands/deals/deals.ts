// crm deals: the group. Its CRUD commands are declared from the registry's deal; stage and view are
// folders beside this file.

import { DEMO } from '../../registry/demo.js';
import { example as ex } from '../../registry/types.js';
import type { Command } from '../command.js';
import { crud } from '../crud.js';
import stage from './stage/command.js';
import view from './view/command.js';

export const DEALS: readonly Command[] = [
  ...crud(
    'deal',
    {
      list: [ex('crm deals list --stage proposal', 'deals in one stage', { tool: { stage: 'proposal' } }), ex('crm deals list --status won --fields name,amount', 'won deals, two fields')],
      get: [
        ex(`crm deals get ${DEMO.deal}`, 'one deal with its stage history', { tool: { id: DEMO.deal } }),
        ex("crm deals list --stage proposal -q | crm deals get - --jq '.[] | {name, moves: (.activities | length)}'", 'several deals, each with its stage history (a list leaves it out): a JSON array of the records'),
      ],
      create: [
        ex('crm deals create --name "Annual licence" --amount 12000 --stage qualification', 'create a deal', { tool: { name: 'Annual licence', amount: 12000, stage: 'qualification' } }),
        ex(`crm deals create --name Renewal --account-id "${DEMO.accountName}" --contact-id ${DEMO.email}`, 'for an account and a contact, named by name and email'),
      ],
      update: [ex(`crm deals update ${DEMO.deal} --amount 15000`, 'change the value', { tool: { ids: [DEMO.deal], amount: 15000 } })],
      delete: [ex(`crm deals delete ${DEMO.deal} --yes`, 'delete without asking', { tool: { ids: [DEMO.deal] } })],
    },
    { view },
  ),
  stage,
];
