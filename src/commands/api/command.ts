// crm api METHOD PATH: raw access to any endpoint through the same core (auth, retries, errors).

import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['api'],
  summary: 'Call any endpoint: crm api METHOD PATH (auth, retries and errors as for every command)',
  args: [
    { name: 'method', type: 'string', description: 'GET, POST, PATCH, PUT or DELETE', choices: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] },
    { name: 'path', type: 'string', description: 'path relative to the base URL, e.g. /contacts' },
  ],
  options: [
    { name: 'field', short: 'f', type: 'string', repeatable: true, description: 'a string field key=value (query for GET, body otherwise); repeatable' },
    { name: 'typed_field', short: 'F', type: 'string', repeatable: true, description: 'a typed field key=value: JSON value, or @file for its text; repeatable' },
    { name: 'input', type: 'file', description: 'request body from a file, or - for stdin' },
    { name: 'paginate', type: 'boolean', description: 'walk every page of a list (GET), streamed' },
    { name: 'raw', type: 'boolean', description: 'print the whole envelope, not only its data' },
  ],
  defaultFormat: 'json',
  examples: [ex('crm api GET /contacts -f status=customer --paginate', 'every customer, raw'), ex('crm api POST /contacts -f name=Ada -f email=ada@example.com', 'create a contact')],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
