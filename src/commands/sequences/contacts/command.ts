// crm sequences contacts ID: who is enrolled, run by the generic runner.

import { DEMO } from '../../../registry/demo.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';
import { idArg } from '../../crud.js';

export default defineCommand({
  command: ['sequences', 'contacts'],
  summary: 'List the contacts enrolled in a sequence',
  endpoint: 'sequences_contacts',
  args: [idArg('sequence')],
  columns: ['id', 'name', 'email', 'enrollment_status', 'enrolled_at'],
  printed: ['enrollment_status', 'enrolled_at'],
  examples: [ex(`crm sequences contacts ${DEMO.sequence}`, 'who is enrolled', { tool: { id: DEMO.sequence } })],
});
