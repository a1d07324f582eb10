// What a command is: one definition, in its own folder of src/commands/ named by its words
// (src/commands/deals/stage/command.ts for `crm deals stage`). It holds everything about the
// command: the endpoint of the registry it calls, its arguments and flags, examples, hints for
// agents (MCP) and for output, and its behaviour, a handler loaded only when it runs (./run.ts
// beside it). A command without a handler is run by the generic runner (./endpoint.ts), which is
// how CRUD takes no code. The tree, the checks, help, completions, MCP tools and docs all read these.
//
// A handler's arguments and options are typed from its definition: `options.forward_to` is a string
// because the definition has a string field of that name, and a misspelt name does not compile.

import type { Format } from '../cli/printer.js';
import type { Context } from '../cli/context.js';
import type { Result } from '../cli/result.js';
import type { WalkPosition } from '../http/paginate.js';
import { ENDPOINTS, type EndpointFacts, type EndpointName } from '../registry/endpoints.js';
import type { BODY_OPTIONS, DELETE_OPTIONS, PAGING_OPTIONS } from '../registry/options.js';
import type { Endpoint, Example, FieldSpec, ResourceName } from '../registry/types.js';

/** How an agent sees the command as an MCP tool: written for agents, who have no terminal, stdin or flags. */
interface McpHints {
  /** The tool's title and first line, when the summary speaks of terminals, stdin or flags. */
  summary?: string;
  /** A repeat changes nothing more (the service answers that it is done already). */
  idempotent?: boolean;
  /** It reaches a person outside the workspace (enrolling sets a sequence's emails going). */
  openWorld?: boolean;
  /** It makes the change another tool makes (deals_stage: deals_update with a stage): it carries that tool's hints. */
  sameChangeAs?: EndpointName;
  /** More an agent must know before calling it (a rate limit). */
  note?: string;
  /** Options a call must give that the command line may give otherwise (deals_stage's stage: its last argument there). */
  required?: readonly string[];
}

export interface CommandSpec {
  /** Words after `crm`: ['deals', 'stage']. */
  command: readonly string[];
  aliases?: readonly string[];
  summary: string;
  /** More about it for its help page, after the summary: what it reads and how (when the summary cannot say). */
  description?: string;
  /** The service endpoint it calls, by its name in the registry (src/registry/endpoints.ts). */
  endpoint?: EndpointName;
  /** Positional arguments: `<id>`, `[stage]`, `[contact_ids...]`. */
  args?: readonly FieldSpec[];
  /** Its own flags; a command of an endpoint also takes the endpoint's (filters, body fields, paging). */
  options?: readonly FieldSpec[];
  examples: readonly Example[];
  mcp?: McpHints;
  /** Table columns in priority order. */
  columns?: readonly string[];
  /** Top-level fields it prints (with `printsResource` or its endpoint's resource: besides that resource's), for checking --fields. */
  printed?: readonly string[];
  /** It prints one report row for each id it acts on (src/commands/bulk.ts), whatever its endpoint answers. */
  printsReport?: boolean;
  /** It prints records of this resource (watch: of the one its argument names). */
  printsResource?: ResourceName | 'argument';
  /** The format when no flag asks for one (crm api prints JSON, as gh api does). */
  defaultFormat?: Format;
  /** The format into a pipe when nothing asks for one (crm watch streams NDJSON). */
  pipeFormat?: 'ndjson';
  /** This option picks the output format as -o does (contacts export --format). */
  formatOption?: string;
  /** The profile's output setting does not apply: `crm config` must work while that setting is bad. */
  ignoresOutputSetting?: boolean;
}

/** A command as the rest of crm sees it: its definition, with its endpoint's facts when it calls one. */
export interface Command extends Omit<CommandSpec, 'endpoint' | 'args' | 'options'>, Partial<Omit<Endpoint, 'name'>> {
  /** Stable name: the endpoint's (`contacts_list`, the MCP tool's name), else the words joined with _. */
  name: string;
  endpoint?: Endpoint;
  args: readonly FieldSpec[];
  /** Its own flags (commandOptions() adds an endpoint's). */
  options: readonly FieldSpec[];
  mcp: McpHints;
  /** Its handler, loaded on use; none: the generic runner. */
  load?: () => Promise<Handler>;
}

/** A command that calls an endpoint: the endpoint's facts are all there. */
export type EndpointCommand = Command & Omit<Endpoint, 'name'> & { endpoint: Endpoint };

export function callsEndpoint(command: Command): command is EndpointCommand {
  return command.endpoint !== undefined;
}

/** Read values by field name, before a handler's types apply. */
export type Values = Readonly<Record<string, unknown>>;

/** What the generic code of commands reads: the command and its values by field name. */
export interface Invocation<C extends Command = Command> {
  command: C;
  args: Values;
  options: Values;
  /**
   * A list read as a walk that can be continued later (MCP list tools, with --limit as the page):
   * from where an earlier walk stood, or from the start.
   */
  walk?: { from?: WalkPosition };
}

/** A command of an endpoint with its values: what the generic runner and the handlers' helpers take. */
export type Call = Invocation<EndpointCommand>;

/**
 * crm's whole tree, for the handlers that describe it (completion scripts, MCP tools): handed to
 * them by the runner, as cobra's commands reach their root, since a module of the tree cannot
 * import the list it belongs to.
 */
export interface Tree {
  commands: readonly Command[];
  /** Each group's words and one-line description, in help order. */
  groups: ReadonlyArray<readonly [string, string]>;
}

/** What a handler receives: its arguments and options, checked and typed by its definition. */
export interface Input<S extends CommandSpec = CommandSpec> {
  command: S extends { endpoint: EndpointName } ? EndpointCommand : Command;
  args: ArgsOf<S>;
  options: OptionsOf<S>;
  tree: Tree;
  walk?: Invocation['walk'];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the loader's handler is typed where it is written
export type Handler<S extends CommandSpec = any> = (ctx: Context, input: Input<S>) => Promise<Result>;

/**
 * The command of a definition. `run` loads its handler (`() => import('./run.js')`); the handler
 * types its input with the definition's type: `Handler<typeof spec>`.
 */
export function defineCommand(spec: CommandSpec, run?: () => Promise<{ run: Handler }>): Command {
  const { endpoint: endpointName, args = [], options = [], mcp = {}, ...rest } = spec;
  const endpoint = endpointName === undefined ? undefined : ENDPOINTS[endpointName];
  const { name: _name, ...facts } = endpoint ?? { name: '' };
  return {
    ...facts,
    ...rest,
    name: endpoint?.name ?? spec.command.join('_'),
    endpoint,
    args,
    options,
    mcp,
    load: run && (async () => (await run()).run),
  };
}

// ---- types of values, from the fields that define them -------------------------------------------

type ItemOf<F extends FieldSpec> = F extends { choices: readonly (infer C extends string)[] }
  ? F['type'] extends 'list' | 'ids'
    ? C[]
    : C
  : F['type'] extends 'integer' | 'number' | 'duration'
    ? number
    : F['type'] extends 'boolean'
      ? boolean
      : F['type'] extends 'ids' | 'list'
        ? string[]
        : F['type'] extends 'json'
          ? unknown
          : string;

type ValueOf<F extends FieldSpec> = F extends { repeatable: true } ? ItemOf<F>[] : F extends { variadic: true } ? string[] : ItemOf<F>;

/** Only fields declared with a literal name are typed (a resource's whole body, declared loosely, adds none). */
type Named<F extends FieldSpec> = string extends F['name'] ? never : F['name'];

type ValuesOf<Fields> = Fields extends readonly FieldSpec[] ? { readonly [F in Fields[number] as Named<F>]?: ValueOf<F> } : {};

/** An argument that is neither optional nor variadic is always there (it is checked before the handler runs). */
type ArgsOf<S extends CommandSpec> = S extends { args: infer A extends readonly FieldSpec[] }
  ? { readonly [F in A[number] as F extends { optional: true } | { variadic: true } ? never : Named<F>]: ValueOf<F> } & {
      readonly [F in A[number] as F extends { optional: true } | { variadic: true } ? Named<F> : never]?: ValueOf<F>;
    }
  : {};

/** The flags an endpoint adds: its filters and body fields, paging for a paged list, --set/--data for a body, --yes for a delete. */
type EndpointOptionsOf<E> = E extends { query: infer Q; body: infer B; method: infer M; kind: infer K }
  ? ValuesOf<Q> &
      ValuesOf<B> &
      (E extends { paged: true } ? ValuesOf<typeof PAGING_OPTIONS> : {}) &
      (M extends 'POST' | 'PATCH' ? ValuesOf<typeof BODY_OPTIONS> : {}) &
      (K extends 'delete' ? ValuesOf<typeof DELETE_OPTIONS> : {})
  : {};

type OptionsOf<S extends CommandSpec> = (S extends { options: infer O } ? ValuesOf<O> : {}) &
  (S extends { endpoint: infer N extends EndpointName } ? EndpointOptionsOf<EndpointFacts<N>> : {});
