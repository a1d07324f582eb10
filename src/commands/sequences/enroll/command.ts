// crm sequences enroll ID CONTACT_ID... | --file FILE | -: bulk enrolment, every id one row of a report.

import { DEMO } from '../../../registry/demo.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';
import { idArg } from '../../crud.js';

const spec = {
  command: ['sequences', 'enroll'],
  summary: 'Enrol contacts into a sequence (ids from arguments, --file, or stdin)',
  endpoint: 'sequences_enroll',
  args: [idArg('sequence'), { name: 'contact_ids', type: 'ids', description: 'contact ids or emails; `-` reads them from stdin', forAgents: 'contact ids or emails', variadic: true, optional: true, references: 'contact' }],
  options: [{ name: 'file', type: 'file', description: 'read contact ids from a file (one a line, or a JSON array)' }],
  printsReport: true,
  examples: [
    ex(`crm sequences enroll ${DEMO.sequence} ${DEMO.contact}`, 'enrol one contact', { tool: { id: DEMO.sequence, contact_ids: [DEMO.contact] } }),
    ex(`crm contacts list --status lead -q | crm sequences enroll ${DEMO.sequence} -`, 'enrol every lead of the page, ids from stdin'),
  ],
  mcp: { summary: 'Enrol contacts into a sequence', idempotent: true, openWorld: true },
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
