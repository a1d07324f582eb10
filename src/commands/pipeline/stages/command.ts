// crm pipeline stages: the stages in order, run by the generic runner.

import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand } from '../../command.js';

export default defineCommand({
  command: ['pipeline', 'stages'],
  summary: 'List the pipeline stages',
  endpoint: 'pipeline_stages',
  columns: RESOURCES.stage.columns,
  examples: [ex('crm pipeline stages', 'the stages in order')],
});
