// crm contacts create: the generic create, and --score.

import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['contacts', 'create'],
  aliases: ['new'],
  summary: 'Create a contact',
  endpoint: 'contacts_create',
  options: [{ name: 'score', type: 'boolean', description: 'score the new contact at once (POST /ai/trigger)' }],
  columns: RESOURCES.contact.columns,
  examples: [
    ex('crm contacts create --name "Ada Lovelace" --email ada@example.com', 'create a contact', { tool: { name: 'Ada Lovelace', email: 'ada@example.com' } }),
    ex('crm contacts create --name "Grace Hopper" --email grace@example.com --score -q', 'create, score at once, print only the id'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
