// The commands of the service's endpoints as MCP tools, generated, never written by hand: a tool's
// name, group and argument schema come from the registry's endpoint and the command's definition,
// its title, description, example and hints from what the definition writes for agents (its
// `mcp` hints, each field's `forAgents`, each example's `tool` arguments). A new endpoint command
// is a new tool.

import { BODY_OPTIONS, DELETE_OPTIONS, PAGING_OPTIONS, commandOptions } from '../../registry/options.js';
import { PAGE_DEFAULT } from '../../registry/service.js';
import { staticValues, type FieldSpec, type Group } from '../../registry/types.js';
import { callsEndpoint, type Command, type EndpointCommand } from '../command.js';

/** Records one call of a list tool returns at most, whatever the service allows: responses stay small. */
export const LIST_MAX = 100;
/** Ids one call of a bulk tool (tasks_complete, ai_accept, sequences_enroll) takes at most. */
const IDS_MAX = 100;

type JsonSchema = Record<string, unknown>;

interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool {
  op: EndpointCommand;
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  /** Only for lists: crm builds their envelope itself, so the shape is certain whatever the service sends. */
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  _meta: { group: Group };
}

/** --read-only and --toolsets. */
export interface Selection {
  readOnly?: boolean;
  groups?: readonly string[];
}

/** The tools an agent may use: every operation, less those that write (--read-only) or of other groups. */
export function selectTools(commands: readonly Command[], { readOnly, groups }: Selection = {}): Tool[] {
  return commands.filter(callsEndpoint).filter((op) => !(readOnly && writes(op)) && (!groups || groups.includes(op.group))).map(toolOf);
}

function writes(op: EndpointCommand): boolean {
  return op.method !== 'GET';
}

// ---- arguments ----------------------------------------------------------------------------------

/** The tool's own paging: `limit` is capped so that no response is giant. */
const LIMIT: FieldSpec = { name: 'limit', type: 'integer', min: 1, max: LIST_MAX, description: `records to return (default ${PAGE_DEFAULT}, at most ${LIST_MAX})` };
/** Where the previous call stopped: a list tool continues from its cursor, not from a count of records (./cursor.ts). */
export const CURSOR: FieldSpec = { name: 'cursor', type: 'string', description: 'the cursor of the previous call, to get the records after its own' };
/** --data, as a JSON object. */
export const DATA: FieldSpec = { name: 'data', type: 'json', description: 'more body fields as a JSON object (fields this schema does not list); named arguments win' };

/**
 * The command's own paging, body and confirmation flags as a tool takes them: limit and data in
 * their tool form, and a cursor in place of offset; --all (no giant responses), --set (key=value
 * text: data says it better) and --yes (the call is the confirmation) not at all.
 */
const IN_TOOL_FORM = new Map<FieldSpec, FieldSpec | undefined>(
  [...PAGING_OPTIONS, ...BODY_OPTIONS, ...DELETE_OPTIONS].map((field) => [field, field.name === 'offset' ? CURSOR : [LIMIT, DATA].find((own) => own.name === field.name)]),
);

/** The options of the command a tool call may give, by field name (never a file: an agent names no local files). */
function optionFieldsOf(op: EndpointCommand): FieldSpec[] {
  return commandOptions(op).flatMap((field) => {
    if (IN_TOOL_FORM.has(field)) return IN_TOOL_FORM.get(field) ?? [];
    return field.type === 'file' ? [] : [field];
  });
}

function inputSchemaOf(op: EndpointCommand): Tool['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  // Every positional argument is required: what a terminal would ask for, or read from stdin, a call gives.
  for (const field of op.args) {
    properties[field.name] = field.variadic ? { ...schemaOf(field), minItems: 1, maxItems: IDS_MAX } : schemaOf(field);
    required.push(field.name);
  }
  for (const field of optionFieldsOf(op)) {
    if (Object.hasOwn(properties, field.name)) throw new Error(`${op.name}: two arguments named ${field.name}`);
    properties[field.name] = schemaOf(field);
    if (field.required) required.push(field.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

const DATE_FORMS = 'YYYY-MM-DD, today, tomorrow, +Nd or +Nw';

/**
 * A field's schema holds only what crm itself checks before sending (types, the spec's fixed values,
 * numeric bounds): values a workspace defines are named in the description and as examples, never
 * as an enum, and the sandbox's length limits are not the service's.
 */
function schemaOf(field: FieldSpec): JsonSchema {
  let description = field.forAgents ?? field.description;
  const schema: JsonSchema = {};
  switch (field.type) {
    case 'integer':
    case 'number':
      schema.type = field.type;
      if (field.type === 'integer' || field.min !== undefined) schema.minimum = field.min ?? 0;
      if (field.max !== undefined) schema.maximum = field.max;
      break;
    case 'boolean':
      schema.type = 'boolean';
      break;
    case 'ids':
    case 'list':
      schema.type = 'array';
      schema.items = field.choices ? { type: 'string', enum: [...field.choices] } : { type: 'string', minLength: 1 };
      if (field.type === 'list') schema.minItems = 1;
      break;
    case 'json':
      // Any JSON value (a sequence's steps); `data` must be an object.
      if (field === DATA) schema.type = 'object';
      break;
    case 'date':
      schema.type = 'string';
      if (!description.includes('YYYY-MM-DD')) description += ` (${DATE_FORMS})`;
      break;
    case 'id':
      schema.type = 'string';
      schema.minLength = 1;
      break;
    default:
      schema.type = 'string';
  }
  const values = staticValues(field);
  if (field.choices && field.type !== 'list') schema.enum = [...field.choices];
  else if (values && !field.choices) {
    description += ` (known values: ${values.join(', ')}; a workspace may define others)`;
    schema.examples = [...values];
  } else if (field.known === 'stages') description += ' (pipeline_stages lists them)';
  else if (field.known === 'sequences') description += ' (sequences_list lists them)';
  if (field.example !== undefined && schema.examples === undefined) schema.examples = [typed(field, field.example)];
  return { ...schema, description };
}

// ---- description and example ----------------------------------------------------------------------

function descriptionOf(op: EndpointCommand, schema: Tool['inputSchema']): string {
  const lines = [`${summaryOf(op)}.`];
  if (op.paged) {
    lines.push(`Returns at most \`limit\` records (default ${PAGE_DEFAULT}, at most ${LIST_MAX}); when has_more is true, call again with the cursor it returned (it stays right when records are completed or deleted meanwhile).`);
  }
  if (op.kind === 'delete') lines.push('Deletes at once: there is no confirmation step.');
  if (Object.keys(schema.properties).length === 0) lines.push('Takes no arguments.');
  else {
    const example = exampleOf(op);
    lines.push(`Example: ${JSON.stringify(example.arguments)}${example.description ? ` (${example.description})` : ''}`);
  }
  return lines.join('\n');
}

/** The summary an agent reads: the definition's own for agents, where the one for people speaks of terminals. */
function summaryOf(op: EndpointCommand): string {
  return op.mcp.summary ?? op.summary;
}

/** The first example written as tool arguments; otherwise the required arguments with placeholders. */
function exampleOf(op: EndpointCommand): { arguments: Readonly<Record<string, unknown>>; description?: string } {
  const written = op.examples.find((example) => example.tool !== undefined);
  if (written) return { arguments: written.tool!, description: written.description };
  // A value the example cannot know, named by the registry: the resource an id points at, else the field.
  const placeholder = (field: FieldSpec) => `<${field.references ? `${field.references} id` : field.name}>`;
  const args = Object.fromEntries(
    [...op.args, ...optionFieldsOf(op).filter((field) => field.required)].map((field) => [field.name, field.variadic || field.type === 'ids' ? [placeholder(field)] : placeholder(field)]),
  );
  return { arguments: args };
}

/** A value from a command line as the tool takes it: numbers as numbers, lists as arrays, JSON parsed when it is JSON. */
function typed(field: FieldSpec, text: string): unknown {
  switch (field.type) {
    case 'integer':
    case 'number':
      return Number(text);
    case 'ids':
    case 'list':
      return text.split(',');
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text;
  }
}

// ---- annotations --------------------------------------------------------------------------------

/**
 * Reads are read-only. Deletes and updates are destructive (an update overwrites values); creates and
 * actions only add. PATCH and DELETE set absolute states, so a repeat is harmless, as for the actions
 * whose definitions say so (completing a task, accepting a suggestion, moving a deal to its stage).
 * Only what a definition says reaches a person (enrolling) leaves the workspace, a closed world.
 */
function annotationsOf(op: EndpointCommand): Omit<ToolAnnotations, 'title'> {
  const reads = !writes(op);
  return {
    readOnlyHint: reads,
    destructiveHint: op.kind === 'delete' || op.kind === 'update',
    idempotentHint: reads || op.method === 'PATCH' || op.method === 'DELETE' || Boolean(op.mcp.idempotent),
    openWorldHint: Boolean(op.mcp.openWorld),
  };
}

/** What a list tool returns (built by crm: ../mcp/call.ts). */
const LIST_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    items: { type: 'array', description: 'the records, newest first' },
    count: { type: 'integer', description: 'records in items' },
    total: { type: 'number', description: "the service's count of every matching record, when it sends one" },
    has_more: { type: 'boolean', description: 'more records exist after these' },
    cursor: { type: 'string', description: 'when has_more: give it to the next call (with the same other arguments) for the records after these' },
    next: { type: 'string', description: 'how to get the next records' },
  },
  required: ['items', 'count', 'has_more'],
};

function toolOf(op: EndpointCommand): Tool {
  const inputSchema = inputSchemaOf(op);
  const title = summaryOf(op);
  return {
    op,
    name: op.name,
    title,
    description: descriptionOf(op, inputSchema),
    inputSchema,
    ...(op.kind === 'list' ? { outputSchema: LIST_OUTPUT } : {}),
    annotations: { title, ...annotationsOf(op) },
    _meta: { group: op.group },
  };
}
