// crm ai trigger CONTACT_ID: score one contact now, and say why.

import { DEMO } from '../../../registry/demo.js';
import { idOrKey } from '../../../registry/resources.js';
import { SCORE_CALLS_PER_WINDOW } from '../../../registry/service.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['ai', 'trigger'],
  summary: 'Score a contact now and persist its next best action',
  endpoint: 'ai_trigger',
  args: [{ name: 'contact_id', type: 'id', description: idOrKey('contact'), references: 'contact' }],
  printed: ['contact_id', 'score', 'factors', 'next_best_action', 'suggestion_id', 'scored_at'],
  examples: [ex(`crm ai trigger ${DEMO.contact}`, 'score a contact and show why', { tool: { contact_id: DEMO.contact } })],
  mcp: { note: `The service takes at most ${SCORE_CALLS_PER_WINDOW} a minute for each API key (more are refused, 429): score the contacts that matter, not every one; the hourly agent scores the rest.` },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
