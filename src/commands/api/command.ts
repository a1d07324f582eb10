// crm api [METHOD] PATH: raw access to any endpoint through the same core (auth, retries, errors).

import { DEMO } from '../../registry/demo.js';
import { API_KEY_HEADER, API_METHODS } from '../../registry/service.js';
import { example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['api'],
  summary: 'Call any endpoint: crm api [METHOD] PATH (auth, retries and errors as for every command)',
  description:
    'The method is GET, or POST when fields (-f, -F) or --input are given, as in gh; -X or a first argument names another. ' +
    '-i prints the status line and the headers of the answer before its body.',
  args: [
    { name: 'method_or_path', flag: 'method-or-path', type: 'string', known: API_METHODS, description: 'the path relative to the base URL (/contacts), or the method before the path' },
    { name: 'path', type: 'string', optional: true, description: 'the path, when a method comes first' },
  ],
  options: [
    { name: 'method', short: 'X', type: 'string', choices: API_METHODS, placeholder: 'method', description: 'the HTTP method (default GET, or POST with fields or --input)' },
    { name: 'field', short: 'f', type: 'string', repeatable: true, description: 'a string field key=value (query for GET and DELETE, body otherwise); repeatable' },
    { name: 'typed_field', short: 'F', type: 'string', repeatable: true, description: 'a typed field key=value: JSON value, or @file for its text; repeatable' },
    { name: 'header', short: 'H', type: 'string', repeatable: true, placeholder: 'name: value', description: `a request header "Name: value" (not ${API_KEY_HEADER}: the key is the profile's); repeatable` },
    { name: 'input', type: 'file', description: 'request body from a file, or - for stdin' },
    { name: 'include', short: 'i', type: 'boolean', description: 'print the status line and the headers of the answer before its body' },
    { name: 'paginate', type: 'boolean', description: 'walk every page of a list (GET), streamed' },
    { name: 'raw', type: 'boolean', description: 'print the whole envelope, not only its data' },
  ],
  defaultFormat: 'json',
  examples: [
    ex('crm api /contacts -X GET -f status=customer --paginate', 'every customer, raw'),
    ex('crm api /contacts -f name=Charles -f email=charles.babbage@example.com', 'create a contact (POST: fields are given)'),
    ex(`crm api -i /contacts/${DEMO.contact}`, 'a contact, after the status line and headers'),
    ex(`crm api PATCH /contacts/${DEMO.contact} -f status=customer`, 'the method as a first argument'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
