// crm contacts enroll ID --sequence SEQ: one contact into a sequence.

import { DEMO } from '../../../registry/demo.js';
import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idArg } from '../../crud.js';

const spec = {
  command: ['contacts', 'enroll'],
  summary: 'Enrol a contact into a sequence',
  endpoint: 'contacts_enroll',
  args: [idArg('contact')],
  columns: RESOURCES.enrollment.columns,
  examples: [ex(`crm contacts enroll ${DEMO.contact} --sequence ${DEMO.sequence}`, 'enrol into a sequence', { tool: { id: DEMO.contact, sequence_id: DEMO.sequence } })],
  // Enrolling again changes nothing (already_enrolled); it sets a sequence's emails going to a person.
  mcp: { idempotent: true, openWorld: true, sameChangeAs: 'sequences_enroll' },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
