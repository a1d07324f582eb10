// The request body of a create, update or action: --data, then --set, then the named flags (the
// most specific wins), then what the command fixes. Required fields are checked on the merged body;
// a person at a terminal is asked for what is missing, a script gets exit 2 naming the flags.

import { STATUS } from '../registry/resources.js';
import type { Context } from '../cli/context.js';
import { usageError } from '../cli/errors.js';
import { safeLine } from '../cli/format.js';
import { deepMerge, emailProblem, parseSetPairs, parseValue, readDataOption, readSource, type Today } from '../cli/input.js';
import type { Choice } from '../cli/prompt.js';
import { isObject, type JsonObject } from '../registry/values.js';
import { fileOption } from '../registry/options.js';
import { flagName, staticValues, type DynamicValues, type FieldSpec } from '../registry/types.js';
import type { Call } from './command.js';
import { pick } from './invocation.js';
import { keyedResource, pickerSource, resolveKeys } from './keys.js';
import { ENDPOINTS } from '../registry/endpoints.js';
import { readList } from '../http/paginate.js';

/** The body, checked, with each email and name in it resolved to an id. */
export async function buildBody(ctx: Context, call: Call, fixed: JsonObject = {}): Promise<JsonObject> {
  return resolveKeys(ctx, call.command.body, await checkBody(ctx, call, fixed));
}

/**
 * The body, checked (or completed by a person at a terminal), its emails and names not looked up
 * yet: a command whose arguments name records too looks them all up at once (resolveWithBody).
 */
export async function checkBody(ctx: Context, { command: op, options, args }: Call, fixed: JsonObject = {}): Promise<JsonObject> {
  const fields = op.body;
  const texts = await readTextFiles(ctx, fields, { options, args });
  const data = typeof options.data === 'string' ? await readDataOption(options.data, ctx.io.stdin) : {};
  const set = parseSetPairs((options.set as string[] | undefined) ?? []);
  let body = deepMerge(data, set, pick(options, fields), texts, fixed);

  for (const field of fields) {
    const value = body[field.name];
    if (field.type === 'email' && typeof value === 'string') {
      const problem = emailProblem(value.trim());
      if (problem) throw usageError(`${field.name}: ${problem}`);
    }
  }

  // A field a create requires may be changed, never emptied: the service would refuse, or keep, a record without it.
  const emptied = fields.find((field) => field.notBlank && Object.hasOwn(body, field.name) && isBlank(body[field.name]));
  if (emptied) throw usageError(`a ${op.noun}'s ${emptied.name} cannot be empty: it is required`);

  const missing = fields.filter((field) => field.required && isBlank(body[field.name]));
  if (missing.length > 0) {
    if (!ctx.io.canPrompt) {
      const flags = missing.map((field) => `--${flagName(field)}${field.long ? ` (or --${fileOption(field).flag})` : ''}`).join(', ');
      throw usageError(`missing required ${flags}`, ctx.io.stdinIsTTY ? 'prompts are off (--no-input)' : 'pass the flags, or --set/--data');
    }
    const asked = fields.filter((field) => missing.includes(field) || (field.prompt && body[field.name] === undefined));
    const subject = ['crm', ...op.command, ...Object.values(args).filter((value) => typeof value === 'string')].join(' ');
    body = { ...body, ...(await askFields(ctx, asked, subject)) };
  }

  if (op.kind === 'update' && Object.keys(body).length === 0) {
    const flags = fields.map((field) => `--${flagName(field)}`).join(', ');
    throw usageError('nothing to update', `pass at least one of ${flags}, --set or --data`);
  }
  // Checked: the look-ups of emails and names (requests) come after.
  return body;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * --body-file FILE|- (each long text's file flag): the text in place of its flag, which cannot be
 * given too; stdin read once. An empty text is refused, nothing sent.
 */
async function readTextFiles(ctx: Context, fields: readonly FieldSpec[], { options, args }: Pick<Call, 'options' | 'args'>): Promise<JsonObject> {
  const texts: JsonObject = {};
  const idsFromStdin = Object.values(args).some((value) => value === '-' || (Array.isArray(value) && value.includes('-')));
  const fromStdin = [...(idsFromStdin ? ['the ids (-)'] : []), ...(options.data === '-' ? ['--data -'] : [])];
  for (const field of fields.filter((one) => one.long)) {
    const source = options[fileOption(field).name];
    if (typeof source !== 'string') continue;
    const flag = `--${fileOption(field).flag}`;
    if (options[field.name] !== undefined) throw usageError(`--${flagName(field)} and ${flag} both give ${field.description}`);
    if (source === '-') fromStdin.push(`${flag} -`);
    if (fromStdin.length > 1) throw usageError(`${fromStdin.join(' and ')} both read stdin`);
    const text = (await readSource(source, ctx.io.stdin, flag)).trimEnd();
    if (text.trim() === '') throw usageError(`${flag} ${source === '-' ? '(stdin)' : source}: ${field.description} is empty, nothing was sent`);
    texts[field.name] = text;
  }
  return texts;
}

/** Asks for each field (a long text in the person's editor); optional ones may be left empty. `subject`: the command, for the editor's template. */
async function askFields(ctx: Context, fields: readonly FieldSpec[], subject: string): Promise<JsonObject> {
  const answers: JsonObject = {};
  for (const field of fields) {
    const label = field.description.charAt(0).toUpperCase() + field.description.slice(1);
    if (field.long) {
      const about = [`${label} for ${safeLine(subject)}.`, 'Write it above the line; an empty text sends nothing.'];
      answers[field.name] = await ctx.editText({ what: field.description, about, fileName: `crm-${field.name}.md` });
      continue;
    }
    const keyed = keyedResource(field);
    if (keyed) {
      // A contact or an account: type to filter the workspace's own, newest first.
      const picked = await ctx.prompter().search(`${label.replace(/ id or \w+$/, '')}${field.required ? '' : ' (optional)'}`, pickerSource(ctx, keyed, !field.required));
      if (picked !== '') answers[field.name] = picked;
      continue;
    }
    const choices = await choicesFor(ctx, field);
    if (choices.length > 0) {
      answers[field.name] = await ctx.prompter().select(label, choices, typeof field.default === 'string' ? field.default : undefined);
      continue;
    }
    const answer = await ctx.prompter().input(`${label}${field.required ? '' : ' (optional)'}`, {
      required: field.required,
      validate: (value) => validateAnswer(field, value, ctx.today()),
    });
    if (answer.trim() !== '') answers[field.name] = parseValue(answer.trim(), field, field.name, ctx.today());
  }
  return answers;
}

function validateAnswer(field: FieldSpec, value: string, today: Today): string | true {
  const text = value.trim();
  if (text === '') return field.required ? `${field.description} is required` : true;
  try {
    parseValue(text, field, field.name, today);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}

/** What a person picks from: the spec's or the sandbox's values, or the workspace's own (stages, sequences). */
async function choicesFor(ctx: Context, field: FieldSpec): Promise<Choice[]> {
  const values = staticValues(field);
  if (values) return values.map((value) => ({ value }));
  if (field.known === 'stages' || field.known === 'sequences') return fetchChoices(ctx, field.known);
  return [];
}

const SOURCES: Record<'stages' | 'sequences', { path: string; query: Record<string, string | number> }> = {
  stages: { path: ENDPOINTS.pipeline_stages.path, query: {} },
  // Only sequences that take enrolments.
  sequences: { path: ENDPOINTS.sequences_list.path, query: { status: STATUS.sequence.active } },
};

/**
 * More stages or active sequences than a workspace has, few enough to read at a key press
 * (completion). Every page is read: a list is paged (20 a page by default), and the first page
 * alone made a stage past it unknown to deals stage (exit 2) and left sequences out of the picker.
 */
export const VALUES_READ_MAX = 1_000;

export async function fetchChoices(ctx: Context, source: Extract<DynamicValues, 'stages' | 'sequences'>): Promise<Choice[]> {
  return (await fetchValues(ctx, source)).map(({ value, label }) => ({ value, name: safeLine(label === value ? value : `${label} (${value})`) }));
}

/** A workspace's stages or active sequences: each one's id, and its name made safe for a terminal. */
export async function fetchValues(ctx: Context, source: Extract<DynamicValues, 'stages' | 'sequences'>): Promise<Array<{ value: string; label: string }>> {
  const client = await ctx.lookupClient();
  const records = await readList(client, SOURCES[source].path, SOURCES[source].query, { key: source, limit: VALUES_READ_MAX });
  return records.filter(isObject).map((item) => {
    const value = String(item.id ?? item.name);
    return { value, label: typeof item.name === 'string' ? safeLine(item.name) : value };
  });
}
