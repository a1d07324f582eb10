// The shapes of the registry: what a field, a command and an example are. Pure data and tiny
// helpers; every layer may import this (it imports nothing), so it stays cheap at start-up.

/** How a value is read from a flag, checked, and sent. */
export type ValueType =
  | 'string'
  | 'email'
  /** A whole number; `min`/`max` bound it (default min 0). */
  | 'integer'
  | 'number'
  /** YYYY-MM-DD; flags also take the other DATE_FORMS. */
  | 'date'
  | 'boolean'
  /** An opaque id string (never assumed numeric or UUID). */
  | 'id'
  /** A list of ids. */
  | 'ids'
  /** A comma-separated list of values. */
  | 'list'
  /** Any JSON value (nested bodies such as a sequence's steps). */
  | 'json'
  /** A file path, or - for stdin. */
  | 'file'
  /** A span of time: 30s, 5m, 1h (or a number of seconds). */
  | 'duration';

/** What a date flag takes (src/cli/input.ts parseDate), as help, errors and MCP schemas say it. */
export const DATE_FORMS = 'YYYY-MM-DD, today, tomorrow, +Nd or +Nw';

/** Values a workspace defines that crm learns from the service, not from the registry. */
export type DynamicValues = 'stages' | 'sequences' | 'profiles';

export interface FieldSpec {
  /** The name on the wire (body member, query parameter) or of the option. */
  name: string;
  type: ValueType;
  /** One line, lower case, for help, prompts, docs and schemas. */
  description: string;
  /** The flag without dashes; defaults to the name in kebab case (due_date → due-date). */
  flag?: string;
  /** A one-letter alias, e.g. 'L' for --limit. */
  short?: string;
  /** Required on create (a person is asked for it; a script gets exit 2). */
  required?: boolean;
  /** Required on create, so an update may change it but not empty it (updateFields sets it). */
  notBlank?: boolean;
  /** Values the specification fixes: anything else is refused before a request is sent. */
  choices?: readonly string[];
  /**
   * Values a workspace defines (statuses, priorities, stages): offered in help, prompts, completions
   * and schemas, but sent as given, because a real workspace may have others. The sandbox, which is
   * a workspace, enforces these.
   */
  known?: readonly string[] | DynamicValues;
  /** The sandbox's default when the field is left out. */
  default?: string | number | boolean;
  /** Set by the service; never sent. */
  readOnly?: boolean;
  /** Also ask a person for this optional field on create. */
  prompt?: boolean;
  /** The sandbox's length limit for text. */
  maxLength?: number;
  /**
   * Text that runs to paragraphs (a note): it is also read from a file (--<flag>-file FILE|-) and,
   * when a person at a terminal must give it, written in their editor.
   */
  long?: boolean;
  /** Bounds of a number or integer; of the item count for ids; milliseconds for a duration. */
  min?: number;
  max?: number;
  /** The resource an id field points at (the sandbox checks it exists). */
  references?: ResourceName;
  /** Positional arguments: takes the rest of the arguments. */
  variadic?: boolean;
  /** Positional arguments: may be left out. */
  optional?: boolean;
  /** Options: may be given more than once. */
  repeatable?: boolean;
  /** Shown in help and schemas. */
  example?: string;
  /** The value's name in help (`--base-url <url>`); defaults to one for its type. */
  placeholder?: string;
  /** The description an agent reads (MCP), where the one for people speaks of terminals, stdin or flags. */
  forAgents?: string;
  /** json: a list of objects with these fields (a sequence's steps), as schemas and the sandbox check them. */
  items?: readonly FieldSpec[];
}

export type ResourceName = 'contact' | 'account' | 'deal' | 'sequence' | 'task' | 'note' | 'enrollment' | 'suggestion' | 'stage' | 'activity';

/** A record type of the service: every field it carries, and how a list of them is shown. */
export interface ResourceSpec {
  name: ResourceName;
  plural: string;
  fields: readonly FieldSpec[];
  /** Filters of its list endpoint (query parameters besides limit and offset). */
  filters: readonly FieldSpec[];
  /** Table columns in priority order: the last ones are dropped first on a narrow terminal. */
  columns: readonly string[];
  /** Members some answers add to the record, which are not fields of it (a deal's `activities`). */
  members?: readonly string[];
  /**
   * What a list shows an agent unless it asks for more (crm mcp): id, name or title, the fields the
   * list filters on, and what tells records apart (a contact's email). Small, so that a page costs few tokens.
   */
  brief: readonly string[];
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Kind = 'list' | 'get' | 'create' | 'update' | 'delete' | 'action';

/** The nine tool groups of the service's own MCP server, also the help groups. */
export const GROUP_NAMES = ['contacts', 'accounts', 'deals', 'sequences', 'tasks', 'pipeline', 'search', 'analytics', 'ai'] as const;
export type Group = (typeof GROUP_NAMES)[number];

export interface Example {
  /** A command line that works on a fresh install (the sandbox's demo ids are stable). */
  command: string;
  description: string;
  /**
   * What it needs beyond a fresh sandbox: TERMINAL (the examples test plays the person, picking the
   * first choice), or anything else (a real workspace...), for which the test skips it, saying why.
   */
  needs?: string;
  /** The same call as an MCP tool's arguments: the example an agent reads (the first example that has them). */
  tool?: Readonly<Record<string, unknown>>;
}

/** An example: `example('crm contacts list --status lead', 'the newest leads', { tool: { status: 'lead' } })`. */
export const example = (command: string, description: string, more: Pick<Example, 'needs' | 'tool'> = {}): Example => ({ command, description, ...more });

export const TERMINAL = 'a terminal';

/** One endpoint of the service: what the sandbox serves and validates, and what a command calls. */
export interface Endpoint {
  /** Stable name: `contacts_list`; the MCP tool's name. */
  name: string;
  method: Method;
  /** Relative to the base URL; `{id}` placeholders are filled from a command's positional arguments. */
  path: string;
  kind: Kind;
  group: Group;
  /** The record's noun for messages: "deleted contact con_1". */
  noun: string;
  /** The record type the endpoint answers with. */
  resource?: ResourceName;
  /** Its records' noun in list footers ("52 contacts"): the list key, else the resource's plural. */
  plural?: string;
  /** Query parameters besides limit and offset (a list's filters). */
  query: readonly FieldSpec[];
  body: readonly FieldSpec[];
  /** The list member in the response, e.g. "contacts" in {"contacts": [...], "total": N}. */
  listKey?: string;
  /** limit, offset and --all apply. */
  paged?: boolean;
}

/** The flag of a field: `due` for due_date when named so, else the kebab-case name. */
export function flagName(field: Pick<FieldSpec, 'name' | 'flag'>): string {
  return field.flag ?? field.name.replace(/_/g, '-');
}

/** How a flag may be written: `-o` (when it has a short form) and `--output`. */
export function flagSpellings(field: Pick<FieldSpec, 'name' | 'flag' | 'short'>): string[] {
  return [...(field.short ? [`-${field.short}`] : []), `--${flagName(field)}`];
}

/** The key commander gives a flag's value: --list-id → listId. */
export function optionKey(field: Pick<FieldSpec, 'name' | 'flag'>): string {
  return flagName(field).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The values a field offers (fixed or known); dynamic ones are fetched by whoever needs them. */
export function staticValues(field: FieldSpec): readonly string[] | undefined {
  if (field.choices) return field.choices;
  return Array.isArray(field.known) ? field.known : undefined;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const EMAIL_MAX_LENGTH = 254;

/** The one email rule, used by the CLI before sending and by the sandbox when it receives. */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value);
}
