// crm contacts export: every contact as CSV, NDJSON or JSON, page by page in constant memory.

import { EXPORT_FORMATS } from '../../../registry/local.js';
import { RESOURCES } from '../../../registry/resources.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['contacts', 'export'],
  summary: 'Write every contact as CSV, NDJSON or JSON, page by page in constant memory',
  options: [{ name: 'format', type: 'string', description: 'output format (default csv; the same as -o)', choices: EXPORT_FORMATS }, ...RESOURCES.contact.filters],
  printsResource: 'contact',
  defaultFormat: 'csv',
  formatOption: 'format',
  examples: [
    ex('crm contacts export', 'every contact as CSV, with a header row'),
    ex('crm contacts export --format ndjson --status customer', 'every customer, one JSON record a line'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
