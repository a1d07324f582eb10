// crm ai trigger CONTACT_ID: score one contact now, and say why.

import { DEMO } from '../../../registry/demo.js';
import { idOrKey } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['ai', 'trigger'],
  summary: 'Score a contact now and persist its next best action',
  endpoint: 'ai_trigger',
  args: [{ name: 'contact_id', type: 'id', description: idOrKey('contact'), references: 'contact' }],
  printed: ['contact_id', 'score', 'factors', 'next_best_action', 'suggestion_id', 'scored_at'],
  examples: [ex(`crm ai trigger ${DEMO.contact}`, 'score a contact and show why', { tool: { contact_id: DEMO.contact } })],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
