// crm contacts enroll ID... --sequence SEQ: the enrolment the service answers with; of several
// contacts (or `-`), one request each and a report; `crm sequences enroll` sends them in batches.

import { DEMO } from '../../../registry/demo.js';
import { CONCURRENCY_OPTIONS } from '../../../registry/options.js';
import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idsArg } from '../../crud.js';

const spec = {
  command: ['contacts', 'enroll'],
  summary: 'Enrol a contact (or several) into a sequence',
  endpoint: 'contacts_enroll',
  args: [idsArg('contact')],
  options: CONCURRENCY_OPTIONS,
  columns: RESOURCES.enrollment.columns,
  examples: [ex(`crm contacts enroll ${DEMO.contact} --sequence ${DEMO.sequence}`, 'enrol into a sequence', { tool: { ids: [DEMO.contact], sequence_id: DEMO.sequence } })],
  // Enrolling again changes nothing (already_enrolled); it sets a sequence's emails going to a person.
  mcp: { idempotent: true, openWorld: true, sameChangeAs: 'sequences_enroll' },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
