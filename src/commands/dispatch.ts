// Which code runs a command: an operation's handler when the registry names one, else the generic
// runner; a local command's handler by its name. Each returns a Result for the printer.

import type { Context } from '../cli/context.js';
import { usageError } from '../cli/errors.js';
import type { Result } from '../cli/result.js';
import type { LocalCommand, LocalHandlerName } from '../registry/local.js';
import { printedFields } from '../registry/printed.js';
import { optionKey, type HandlerName, type Operation } from '../registry/types.js';
import { run as aiAccept } from './handlers/ai-accept.js';
import { run as aiTrigger } from './handlers/ai-trigger.js';
import { run as analytics } from './handlers/analytics.js';
import { run as contactsCreate } from './handlers/contacts-create.js';
import { run as dealsStage } from './handlers/deals-stage.js';
import { run as pipelineDeals } from './handlers/pipeline-deals.js';
import { run as search } from './handlers/search.js';
import { run as sequencesEnroll } from './handlers/sequences-enroll.js';
import { run as tasksComplete } from './handlers/tasks-complete.js';
import { parseInvocation, type Invocation, type KeyOf } from './invocation.js';
import * as auth from './local/auth.js';
import * as config from './local/config.js';
import * as profiles from './local/profiles.js';
import type { LocalHandler } from './local/types.js';
import { runGeneric, type Handler } from './run.js';

const HANDLERS: Record<HandlerName, Handler> = {
  'contacts-create': contactsCreate,
  'deals-stage': dealsStage,
  'sequences-enroll': sequencesEnroll,
  'tasks-complete': tasksComplete,
  'pipeline-deals': pipelineDeals,
  search,
  analytics,
  'ai-accept': aiAccept,
  'ai-trigger': aiTrigger,
};

type Rare = typeof import('./rare.js');
const rare = (pick: (module: Rare) => LocalHandler) => async () => pick(await import('./rare.js'));

/** Each local command's handler; the rarer ones (./rare.ts) loaded when run. */
const LOCAL_HANDLERS: Record<LocalHandlerName, () => LocalHandler | Promise<LocalHandler>> = {
  'auth.login': () => auth.login,
  'auth.status': () => auth.status,
  'auth.logout': () => auth.logout,
  'profiles.list': () => profiles.listProfiles,
  'profiles.use': () => profiles.use,
  'profiles.remove': () => profiles.remove,
  'config.get': () => config.get,
  'config.set': () => config.set,
  'config.unset': () => config.unset,
  'config.list': () => config.listSettings,
  'sandbox.init': rare((m) => m.sandbox.init),
  'sandbox.serve': rare((m) => m.sandbox.serve),
  'sandbox.reset': rare((m) => m.sandbox.reset),
  'sandbox.status': rare((m) => m.sandbox.status),
  'api.run': rare((m) => m.api.run),
  'mcp.serve': rare((m) => m.mcp.serve(runOperation)),
  'completion.script': rare((m) => m.completion.script),
  'watch.run': rare((m) => m.watch.run),
  'contacts.import': rare((m) => m.contactsImport.run),
  'contacts.export': rare((m) => m.contactsExport.run),
  'sync.run': rare((m) => m.sync.run),
  'query.run': rare((m) => m.query.run),
};

/** Arguments and options as commander hands them over. */
interface RawInput {
  args: Readonly<Record<string, unknown>>;
  options: Readonly<Record<string, unknown>>;
  /** An MCP list tool: the list read as a walk that can be continued. */
  walk?: Invocation['walk'];
}

/** Options by commander's camelCase key; an MCP tool passes them by field name. */
const COMMANDER_KEYS: KeyOf = optionKey;

export async function runOperation(ctx: Context, op: Operation, input: RawInput, keyOf: KeyOf = COMMANDER_KEYS): Promise<Result> {
  const invocation = { ...parseInvocation(op, input.args, input.options, keyOf), walk: input.walk };
  checkFields(ctx, printedFields(op), op.plural ?? op.noun);
  return (op.handler ? HANDLERS[op.handler] : runGeneric)(ctx, invocation);
}

export async function runLocal(ctx: Context, local: LocalCommand, input: RawInput): Promise<Result> {
  const invocation = parseInvocation(local, input.args, input.options, COMMANDER_KEYS);
  const argument = invocation.args.string('resource');
  checkFields(ctx, printedFields(local, argument), argument ?? `crm ${local.command.join(' ')}`);
  const handler = await LOCAL_HANDLERS[local.handler]();
  return handler(ctx, invocation);
}

/** --fields names the registry does not know for what this command prints: exit 2, before anything is sent. */
function checkFields(ctx: Context, known: readonly string[] | undefined, what: string): void {
  const fields = ctx.output().fields;
  if (!fields || !known) return;
  const unknown = fields.filter((field) => !known.includes(field) && !known.includes(field.split('.')[0]!));
  if (unknown.length === 0) return;
  const names = unknown.map((field) => `"${field}"`).join(', ');
  throw usageError(`unknown field${unknown.length > 1 ? 's' : ''} ${names} for ${what} (fields: ${known.join(', ')})`, '--json prints every field a record has');
}
