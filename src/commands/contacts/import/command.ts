// crm contacts import FILE|-: every row checked first, sent concurrently, resumable.

import { CONCURRENCY_OPTIONS } from '../../../registry/options.js';
import { IMPORT_FORMATS, TEXT_ENCODINGS } from '../../../registry/local.js';
import { example as ex } from '../../../registry/types.js';
import { defineCommand, type CommandSpec } from '../../command.js';

const spec = {
  command: ['contacts', 'import'],
  summary: 'Create contacts from a CSV, NDJSON or JSON file: every row checked first, sent concurrently, resumable',
  args: [{ name: 'file', type: 'file', description: 'a CSV file with a header row, an NDJSON file, a JSON array, or - for stdin' }],
  options: [
    { name: 'format', type: 'string', description: 'input format (default: from the file name, else from its first character)', choices: IMPORT_FORMATS },
    { name: 'encoding', type: 'string', description: 'the file\'s encoding when it is not UTF-8: cp1252 (a spreadsheet\'s "CSV" saved on Windows) or latin1', choices: TEXT_ENCODINGS },
    { name: 'unescape_formulas', type: 'boolean', description: "a CSV written with --escape-formulas: take off the ' it put before = + - @ (the cells read back exactly)" },
    { name: 'map', type: 'string', repeatable: true, description: 'read column COLUMN into contact field FIELD: COLUMN=FIELD (repeatable)', example: 'E-mail=email' },
    ...CONCURRENCY_OPTIONS,
    { name: 'upsert', type: 'boolean', description: "update the contact that has the row's email (or an earlier row's) instead of creating another" },
    { name: 'score', type: 'boolean', description: 'score each created contact (POST /ai/trigger, within its rate limit)' },
    { name: 'errors', type: 'file', description: 'write invalid and failed rows to this CSV file, with their line number and the reason' },
    { name: 'checkpoint', type: 'file', description: 'where progress is recorded (default: beside the input, FILE.crm-checkpoint)' },
    { name: 'resume', type: 'boolean', description: 'continue from the checkpoint: retry what did not succeed, never create a row twice' },
  ],
  // The report; a dry run's rows also carry the contact's fields.
  printed: ['line', 'ok', 'result', 'id', 'email', 'error'],
  printsResource: 'contact',
  examples: [
    ex('crm contacts import contacts.csv --errors errors.csv', 'import a spreadsheet; rows that fail go to errors.csv', { needs: 'a contacts.csv file' }),
    ex('crm contacts import contacts.csv --resume', 'finish an interrupted or partly failed import', { needs: 'a contacts.csv file' }),
    ex('crm contacts export --format ndjson | crm contacts import - --dry-run', 'check every row, send nothing'),
    ex('crm contacts export --format ndjson | crm contacts import - --upsert', 'update the contacts that have these emails (create the others)'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
