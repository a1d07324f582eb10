// The commands of the service's endpoints as MCP tools, generated, never written by hand: a tool's
// name, group and argument schema come from the registry's endpoint and the command's definition,
// its title, description, example and hints from what the definition writes for agents (its
// `mcp` hints, each field's `forAgents`, each example's `tool` arguments), the fields a list or get
// may return from what the command prints. A new endpoint command is a new tool.

import { ENDPOINTS } from '../../registry/endpoints.js';
import { BODY_OPTIONS, CONCURRENCY_OPTIONS, DELETE_OPTIONS, PAGING_OPTIONS, commandOptions } from '../../registry/options.js';
import { LIST_FILTERS, RESOURCES } from '../../registry/resources.js';
import { PAGE_DEFAULT } from '../../registry/service.js';
import { DATE_FORMS, staticValues, type FieldSpec, type Group } from '../../registry/types.js';
import { callsEndpoint, type Command, type EndpointCommand } from '../command.js';
import { idArg } from '../crud.js';
import { printedFields } from '../printed.js';

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

/** A tool as tools/list gives it. */
interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  /** Only for lists: crm builds their envelope itself, so the shape is certain whatever the service sends. */
  outputSchema?: JsonSchema;
  annotations: ToolAnnotations;
  _meta: { group: Group };
}

export interface Tool {
  name: string;
  op: EndpointCommand;
  /** What a list returns unless asked for more (`fields`, `full`); undefined: every field. */
  brief?: readonly string[];
  inputSchema: ToolDefinition['inputSchema'];
  /** What tools/list says of it; the rest is crm's own. */
  definition: ToolDefinition;
}

/** --read-only, --toolsets, --tools and --exclude-tools. */
export interface Selection {
  readOnly?: boolean;
  groups?: readonly string[];
  tools?: readonly string[];
  excluded?: readonly string[];
}

/**
 * The tools an agent may use, as github-mcp-server selects them: those of the groups (all without
 * --toolsets, none with only --tools) and the tools named, less the ones excluded; --read-only
 * leaves out every tool that writes, even one named.
 */
export function selectTools(commands: readonly Command[], { readOnly, groups, tools, excluded }: Selection = {}): Tool[] {
  const inGroups = (op: EndpointCommand) => (groups ? groups.includes(op.group) : tools === undefined);
  return commands
    .filter(callsEndpoint)
    .filter((op) => !(readOnly && writes(op)) && !excluded?.includes(op.name) && (inGroups(op) || Boolean(tools?.includes(op.name))))
    .map(toolOf);
}

function writes(op: EndpointCommand): boolean {
  return op.method !== 'GET';
}

// ---- arguments ----------------------------------------------------------------------------------

/** The tool's own paging: `limit` is capped so that no response is giant. */
const LIMIT: FieldSpec = { name: 'limit', type: 'integer', min: 1, max: LIST_MAX, description: `records to return (default ${PAGE_DEFAULT})` };
/** Where the previous call stopped: a list tool continues from its cursor, not from a count of records (./cursor.ts). */
export const CURSOR: FieldSpec = { name: 'cursor', type: 'string', description: "the previous call's cursor: the records after its own" };
/** --data, as a JSON object. */
export const DATA: FieldSpec = { name: 'data', type: 'json', description: 'more body fields as a JSON object (fields this schema does not list); named arguments win' };
/** A list's records in full rather than brief. */
export const FULL: FieldSpec = { name: 'full', type: 'boolean', description: 'every field of each record, not the brief ones' };
/** The arguments a tool adds to its command's: they shape the result, and are no part of the call a cursor belongs to. */
export const SHAPING = ['fields', FULL.name] as const;

/**
 * The command's own paging, body and confirmation flags as a tool takes them: limit and data in
 * their tool form, and a cursor in place of offset; --all (no giant responses), --set (key=value
 * text: data says it better), --yes (the call is the confirmation) and --concurrency (the server
 * keeps the pace of its calls) not at all.
 */
const IN_TOOL_FORM = new Map<FieldSpec, FieldSpec | undefined>(
  [...PAGING_OPTIONS, ...BODY_OPTIONS, ...DELETE_OPTIONS, ...CONCURRENCY_OPTIONS].map((field) => [field, field.name === 'offset' ? CURSOR : [LIMIT, DATA].find((own) => own.name === field.name)]),
);

/** The options of the command a tool call may give, by field name (never a file: an agent names no local files). */
function optionFieldsOf(op: EndpointCommand): FieldSpec[] {
  return commandOptions(op).flatMap((field) => {
    if (IN_TOOL_FORM.has(field)) return IN_TOOL_FORM.get(field) ?? [];
    return field.type === 'file' ? [] : [field];
  });
}

/** An option a call must give: one its command requires, or one the command line may give otherwise (a last argument). */
function requiredInCall(op: EndpointCommand, field: FieldSpec): boolean {
  return Boolean(field.required || op.mcp.required?.includes(field.name));
}

/** `fields` of a list or get: which of the fields its records may have to return (the fields it prints). */
function fieldsArgument(op: EndpointCommand, brief: readonly string[] | undefined): FieldSpec | undefined {
  if (op.kind !== 'list' && op.kind !== 'get') return undefined;
  const printed = printedFields(op);
  if (!printed) return undefined;
  const returns = brief ? `default: ${brief.join(', ')}` : 'default: every field';
  return { name: SHAPING[0], type: 'list', choices: printed, description: `only these fields of each record (${returns})` };
}

/** The tool's own arguments: how much of each record to return. */
function shapingFields(op: EndpointCommand, brief: readonly string[] | undefined): FieldSpec[] {
  const fields = fieldsArgument(op, brief);
  return [...(fields ? [fields] : []), ...(brief ? [FULL] : [])];
}

/**
 * The tool's positional arguments, in the command's order: the command's own, except a get's, which
 * takes one `id` as it always did (several ids on the command line print a list; an agent reads a
 * record a call).
 */
export function toolArgsOf(op: EndpointCommand): FieldSpec[] {
  return op.args.map((field) => (op.kind === 'get' && field.variadic && field.references ? idArg(field.references) : field));
}

function inputSchemaOf(op: EndpointCommand, brief: readonly string[] | undefined): ToolDefinition['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  // Every positional argument is required: what a terminal would ask for, or read from stdin, a call gives.
  for (const field of toolArgsOf(op)) {
    // A variadic argument is a list of ids, whatever a terminal also takes there (deals stage: the stage last).
    properties[field.name] = field.variadic ? { ...schemaOf({ ...field, type: 'ids', known: undefined }), minItems: 1, maxItems: IDS_MAX } : schemaOf(field);
    required.push(field.name);
  }
  for (const field of [...optionFieldsOf(op), ...shapingFields(op, brief)]) {
    if (Object.hasOwn(properties, field.name)) throw new Error(`${op.name}: two arguments named ${field.name}`);
    properties[field.name] = schemaOf(field);
    if (requiredInCall(op, field)) required.push(field.name);
    // An empty filter is refused (it would select every record): the schema says so.
    if (LIST_FILTERS.has(field) && properties[field.name]!.type === 'string') properties[field.name]!.minLength ??= 1;
  }
  // A required text is no empty string, nor one an update may not empty: the command refuses a blank one before sending, in a command line's words.
  const notEmpty = [...required, ...optionFieldsOf(op).filter((field) => field.notBlank).map((field) => field.name)];
  for (const name of notEmpty) if (properties[name]!.type === 'string') properties[name]!.minLength ??= 1;
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * What a list returns an agent unless it asks for more: its resource's brief fields, else (search
 * results, per-stage totals) its table's columns; undefined for a list of the command's own rows (a
 * bulk report).
 */
function briefOf(op: EndpointCommand): readonly string[] | undefined {
  if (op.kind !== 'list') return undefined;
  return op.resource ? RESOURCES[op.resource].brief : op.columns;
}

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
      // `data` is an object; a list of objects (a sequence's steps) has their fields' schemas.
      if (field === DATA) schema.type = 'object';
      else if (field.items) {
        schema.type = 'array';
        if (field.max !== undefined) schema.maxItems = field.max;
        schema.items = { type: 'object', properties: Object.fromEntries(field.items.map((item) => [item.name, schemaOf(item)])), required: field.items.filter((item) => item.required).map((item) => item.name) };
      }
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

function descriptionOf(op: EndpointCommand, schema: ToolDefinition['inputSchema'], annotations: Omit<ToolAnnotations, 'title'>): string {
  const lines = [`${summaryOf(op)}.`];
  if (op.mcp.note) lines.push(op.mcp.note);
  if (op.paged) {
    lines.push('When has_more is true, call again with the cursor it returned (it stays right when records are completed or deleted meanwhile).');
  }
  if (op.kind === 'delete') lines.push('Deletes at once: there is no confirmation step.');
  if (Object.keys(schema.properties).length === 0) lines.push('Takes no arguments.');
  else {
    const example = exampleOf(op, annotations.destructiveHint);
    lines.push(`Example: ${JSON.stringify(example.arguments)}${example.description ? ` (${example.description})` : ''}`);
  }
  return lines.join('\n');
}

/** The summary an agent reads: the definition's own for agents, where the one for people speaks of terminals. */
function summaryOf(op: EndpointCommand): string {
  return op.mcp.summary ?? op.summary;
}

/**
 * The first example written as tool arguments; otherwise the required arguments with placeholders.
 * A destructive tool's example names no record: its ids are placeholders, so that an agent that
 * calls it as it is changes nothing (the written ones are the sandbox's demo records).
 */
function exampleOf(op: EndpointCommand, destructive: boolean): { arguments: Readonly<Record<string, unknown>>; description?: string } {
  // A value the example cannot know, named by the registry: the resource an id points at, else the field.
  const named = (field: FieldSpec) => `<${field.references ? `${field.references} id` : field.name}>`;
  const placeholder = (field: FieldSpec) => (field.variadic || field.type === 'ids' ? [named(field)] : named(field));
  const written = op.examples.find((example) => example.tool !== undefined);
  const required = [...toolArgsOf(op), ...optionFieldsOf(op).filter((field) => requiredInCall(op, field))];
  const args: Record<string, unknown> = written ? { ...written.tool } : Object.fromEntries(required.map((field) => [field.name, placeholder(field)]));
  if (destructive) for (const field of [...toolArgsOf(op), ...optionFieldsOf(op)]) if (Object.hasOwn(args, field.name) && isId(field)) args[field.name] = placeholder(field);
  return { arguments: args, description: written?.description };
}

const isId = (field: FieldSpec) => field.type === 'id' || field.type === 'ids' || field.references !== undefined;

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
 * actions only add, unless they make an update's change (a stage move is deals_update with a
 * stage): then they carry its hints. idempotentHint promises that a repeat answers a success: reads,
 * updates (the same values again), and the actions whose definitions say so, whose repeat is
 * `already_<state>` (../already.ts); not a delete, whose repeat finds nothing to delete. Only what a
 * definition says reaches a person (enrolling) leaves the workspace, a closed world.
 */
function annotationsOf(op: EndpointCommand): Omit<ToolAnnotations, 'title'> {
  const change = op.mcp.sameChangeAs ? ENDPOINTS[op.mcp.sameChangeAs] : op.endpoint;
  const reads = change.method === 'GET';
  return {
    readOnlyHint: reads,
    destructiveHint: change.kind === 'delete' || change.kind === 'update',
    idempotentHint: reads || change.method === 'PATCH' || Boolean(op.mcp.idempotent),
    openWorldHint: Boolean(op.mcp.openWorld),
  };
}

/** What a list tool returns (built by crm: ../mcp/call.ts). */
const LIST_OUTPUT: JsonSchema = {
  type: 'object',
  properties: {
    items: { type: 'array', description: 'newest first' },
    count: { type: 'integer' },
    total: { type: 'number', description: 'all matching records, when the service says' },
    has_more: { type: 'boolean' },
    cursor: { type: 'string', description: 'for the next call, when has_more' },
    next: { type: 'string', description: 'why has_more, when there is no cursor' },
    summary: { type: 'string', description: "a bulk call's counts" },
  },
  required: ['items', 'count', 'has_more'],
};

function toolOf(op: EndpointCommand): Tool {
  const brief = briefOf(op);
  const inputSchema = inputSchemaOf(op, brief);
  const title = summaryOf(op);
  const annotations = annotationsOf(op);
  const definition: ToolDefinition = {
    name: op.name,
    title,
    description: descriptionOf(op, inputSchema, annotations),
    inputSchema,
    ...(op.kind === 'list' ? { outputSchema: LIST_OUTPUT } : {}),
    annotations: { title, ...annotations },
    _meta: { group: op.group },
  };
  return { name: op.name, op, brief, inputSchema, definition };
}
