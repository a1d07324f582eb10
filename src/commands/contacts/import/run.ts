// crm contacts import FILE|-: every row read and checked first (./rows.ts), then sent a few at a
// time (p-map: a well-kept pool, not a hand-rolled one, that takes each row as a slot frees up)
// over the core's kept-alive connections and retry rules. Every row ends in one state (created
// with its id, updated, invalid, failed with the reason), journaled in a checkpoint
// (./checkpoint.ts) that --resume finishes from.

import { existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pMap from 'p-map';
import type { Context } from '../../../cli/context.js';
import { CliError, ExitCode, noRecordError, toCliError, usageError } from '../../../cli/errors.js';
import { firstTen, safeLine } from '../../../cli/format.js';
import { decodeText, encodeText, type TextEncoding } from '../../../cli/encoding.js';
import { checkOutputFileWritable, readSourceBytes } from '../../../cli/input.js';
import { CSV_OPTIONS } from '../../../cli/output/csv.js';
import { startProgress, type Progress } from '../../../cli/progress.js';
import { list, type Result, type View } from '../../../cli/result.js';
import type { ApiClient } from '../../../http/core.js';
import { recordId } from '../../../http/envelope.js';
import { cannotUseFile, isObject } from '../../../registry/values.js';
import { writeFileAtomic } from '../../../config/atomic.js';
import { sandboxPath } from '../../../config/paths.js';
import { walk } from '../../../http/paginate.js';
import { fillPath } from '../../../http/url.js';
import { countsOf } from '../../bulk.js';
import { CONCURRENCY } from '../../../registry/options.js';
import { SCORE_CALLS_PER_WINDOW } from '../../../registry/service.js';
import { Scorer } from '../../scoring.js';
import { stopOnSigterm, type Stopper } from '../../stop.js';
import { Checkpoint, CheckpointUnwritable, MARK_AHEAD, type RowEntry } from './checkpoint.js';
import { detectFormat, readImportFile, refuseRepeatedEmails, type ImportFile, type ImportFormat, type ImportRow, type RowNumbering } from './rows.js';
import type { Handler } from '../../command.js';
import type { Spec } from '../import/command.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';

const CONTACTS = { list: ENDPOINTS.contacts_list, create: ENDPOINTS.contacts_create, update: ENDPOINTS.contacts_update };

/** Rows failing in a row for want of the service (network, 5xx) before the import stops: it is down. */
const STOP_AFTER_FAILURES = 10;
/** Failures that concern every row alike: the import stops at the first. */
const STOPS_AT_ONCE = new Set<number>([ExitCode.auth, ExitCode.rateLimited]);

type RowResult = 'created' | 'updated' | 'invalid' | 'failed' | 'pending';

/** One line of the report: what became of an input row. */
interface Outcome {
  line: number;
  ok: boolean;
  result: RowResult;
  id: string | null;
  email: string | null;
  error: string | null;
}

/** A row with what the checkpoint says of it. */
interface Planned {
  row: ImportRow;
  /** Created or updated by an earlier run. */
  done?: RowEntry;
  /** Sent before without a clear answer: look it up before sending it again. */
  uncertain: boolean;
}

/** The report's columns, and its rows' fields (a CSV's header when the file has no row, not a contact's). */
const REPORT_VIEW: View = { columns: ['line', 'result', 'id', 'email', 'error'], fields: ['line', 'ok', 'result', 'id', 'email', 'error'], noun: 'rows' };

export const run: Handler<Spec> = async (ctx, { args, options }) => {
  const file = args.file;
  const source = file === '-' ? 'stdin' : file;
  const errorsFile = options.errors;
  const checkpointPath = options.checkpoint ?? (file === '-' ? undefined : `${file}.crm-checkpoint`);
  const resume = Boolean(options.resume);
  if (resume && checkpointPath === undefined) throw usageError('--resume needs the checkpoint of the earlier run', 'with stdin, name it with --checkpoint FILE');
  for (const [flag, path] of [['--errors', errorsFile], ['--checkpoint', options.checkpoint]] as const) {
    if (path === '-') throw usageError(`${flag} needs a file name, not -`);
    if (path !== undefined && file !== '-' && resolve(path) === resolve(file)) throw usageError(`${flag} would overwrite the input file ${file}`);
  }
  // Written at the end over a journal still in use: --resume would find no checkpoint in it.
  if (errorsFile !== undefined && checkpointPath !== undefined && resolve(errorsFile) === resolve(checkpointPath)) {
    throw usageError(`--errors ${errorsFile} is the checkpoint of this import: the errors would be written over its progress`, 'give --errors another file');
  }

  if (errorsFile !== undefined) checkOutputFileWritable(errorsFile, '--errors', { replaced: true });

  const bytes = await readSourceBytes(file, ctx.io.stdin, 'the input');
  const encoding = (options.encoding ?? 'utf8') as TextEncoding;
  const { text, bom } = decodeText(bytes, source, encoding);
  const format = detectFormat(text, source, options.format as ImportFormat | undefined);
  if (options.unescape_formulas && format !== 'csv') throw usageError(`--unescape-formulas reads a CSV, and ${source} is read as ${format}`, '--escape-formulas changes CSV only: import NDJSON or JSON without it');
  const input = await readImportFile(text, format, { maps: options.map ?? [], unescapeFormulas: Boolean(options.unescape_formulas) }, source);
  if (!options.upsert) refuseRepeatedEmails(input);
  if (input.ignored.length > 0) {
    const names = input.ignored.map((name) => `"${safeLine(name)}"`).join(', ');
    ctx.warn(`ignoring ${input.ignored.length === 1 ? 'a column that is not a contact field' : 'columns that are not contact fields'}: ${names} (send one with --map COLUMN=FIELD)`);
  }
  // Not one row can be sent: the input is bad, refused as a whole before anything is sent (exit 2),
  // each row's reason in the report (and --errors); no checkpoint is made, there is nothing to resume.
  if (input.rows.length > 0 && input.rows.every((row) => row.problem !== undefined)) {
    const outcomes = input.rows.map((row): Outcome => ({ line: row.line, ok: false, result: 'invalid', id: null, email: null, error: row.problem! }));
    if (errorsFile !== undefined && !ctx.dryRun) await writeErrors(errorsFile, input, outcomes, { encoding, bom });
    const where = errorsFile !== undefined && !ctx.dryRun ? `the rows and reasons are in ${errorsFile}` : 'the report gives each row and why';
    const failure = new CliError(`no row of ${source} can be imported: ${numbered(outcomes.map((outcome) => outcome.line), input.numberedBy)} ${outcomes.length > 1 ? 'are' : 'is'} invalid; nothing was sent`, ExitCode.usage, { code: 'invalid_rows', hint: `${where}; fix them, then run the same command` });
    return { ...list(outcomes, { ...REPORT_VIEW, summary: countsOf(outcomes) }), failure };
  }
  const digestOf = checkpointPath === undefined ? undefined : await digester();
  const checkpoint =
    checkpointPath === undefined
      ? undefined
      : Checkpoint.open(checkpointPath, source, {
          resume,
          // An upsert of a file imported before is the ordinary next step: every row is looked up again.
          replace: Boolean(options.upsert),
          identity: { workspace: workspaceOf(ctx), profile: ctx.target().profile, input: file === '-' ? 'stdin' : resolve(file), digest: digestOf!(bytes) },
          dryRun: ctx.dryRun,
        });
  ctx.onClose(() => checkpoint?.close(false));
  // --resume with no checkpoint imports every row (so a script may always pass it); an import that
  // finished removed its checkpoint, and its rows would then each be refused as existing.
  if (resume && checkpoint && !existsSync(checkpoint.path)) ctx.info(`no checkpoint at ${checkpoint.path}: nothing to resume, every row is sent (an import that finished removes its checkpoint)`);
  const plan = planRows(input, checkpoint, source, digestOf);
  if (ctx.dryRun) return dryRunReport(plan, Boolean(options.upsert), input.numberedBy);

  const client = await ctx.client();
  ctx.spinnerAllowed = false;
  if (checkpoint) ctx.uncertainWritesAdvice = 'run the same command with --resume, which looks them up before sending anything again';
  // SIGTERM: no new rows, the ones under way finish, then the report. Ctrl-C ends the command at once
  // (the runner's): what the journal holds is written first, and --resume looks up the rows under way.
  const stopper = stopOnSigterm(ctx.io.signals);
  ctx.onClose(() => stopper.dispose());
  const importer = new Importer(ctx, client, stopper, checkpoint, {
    concurrency: options.concurrency ?? CONCURRENCY,
    upsert: Boolean(options.upsert),
    score: Boolean(options.score),
    digestOf,
  });
  const outcomes = await importer.run(plan);
  // In the input's encoding, with a byte order mark only if the input had one: it reads back as the input did.
  if (errorsFile !== undefined) await writeErrors(errorsFile, input, outcomes, { encoding, bom });
  return importer.report(outcomes, input, errorsFile);
};

/** A short digest of what a row sends, for the checkpoint (one-shot hash: no Hash object a row). */
async function digester(): Promise<(data: string | Buffer) => string> {
  const { hash } = await import('node:crypto');
  return (data) => hash('sha256', data, 'hex').slice(0, 16);
}

/** Which workspace rows go to: its base URL, or the local sandbox's database. */
function workspaceOf(ctx: Context): string {
  const target = ctx.target();
  return target.kind === 'remote' ? target.baseUrl : `the local sandbox (${sandboxPath(ctx.env)})`;
}

/**
 * What the checkpoint says of each row; a row imported before must still send the same data (its
 * digest). The other rows are digested as they are sent, not before the first request.
 */
function planRows({ rows, numberedBy }: ImportFile, checkpoint: Checkpoint | undefined, source: string, digestOf?: (text: string) => string): Planned[] {
  const changed: number[] = [];
  const plan = rows.map((row): Planned => {
    if (!row.body) return { row, uncertain: false };
    const entry = checkpoint?.entries.get(row.line);
    const imported = entry?.state === 'created' || entry?.state === 'updated';
    if (imported && entry.digest !== digestOf?.(JSON.stringify(row.body))) changed.push(row.line);
    // Sent (under a mark) with no outcome written, or failed without a clear answer: it may exist.
    const uncertain = entry === undefined ? row.line <= (checkpoint?.sentThrough ?? 0) : entry.state === 'failed' && entry.uncertain === true;
    return { row, done: imported ? entry : undefined, uncertain };
  });
  if (changed.length > 0) {
    const verb = changed.length > 1 ? 'hold' : 'holds';
    throw usageError(`${source} changed since it was imported: ${numbered(changed, numberedBy)} now ${verb} other data`, 'resume needs the imported rows as they were; fix only rows that failed, or start again with a new --checkpoint');
  }
  return plan;
}

function dryRunReport(plan: readonly Planned[], upsert: boolean, numberedBy: RowNumbering): Result {
  // The row's fields first: a workspace field named like a report column (--map X=result) cannot hide it.
  const rows = plan.map(({ row, done }) => ({
    ...row.body,
    line: row.line,
    ok: !row.problem,
    result: row.problem ? 'invalid' : done ? 'already_imported' : upsert ? 'would_create_or_update' : 'would_create',
    ...(done?.id ? { id: done.id } : {}),
    error: row.problem ?? null,
  }));
  const invalid = rows.filter((row) => !row.ok).map((row) => row.line);
  const result = list(rows, { columns: ['line', 'result', 'name', 'email', 'company', 'error'], fields: ['line', 'ok', 'result', 'error'], noun: 'rows', summary: `${countsOf(rows)}; nothing was sent (dry run)` });
  if (invalid.length === 0) return result;
  return { ...result, failure: new CliError(`${invalid.length} of ${rows.length} rows are invalid: ${numbered(invalid, numberedBy)}`, ExitCode.partial, { code: 'invalid_rows' }) };
}

interface ImportOptions {
  concurrency: number;
  upsert: boolean;
  score: boolean;
  /** With a checkpoint: the digest of a row's body, journaled with its outcome. */
  digestOf?: (text: string) => string;
}

class Importer {
  private readonly scorer?: Scorer;
  private readonly scoring: Array<Promise<void>> = [];
  /** Why the import stopped early (the service is down, the key was refused). */
  private halted?: CliError;
  private failuresInARow = 0;
  private finished = 0;
  /** For each line to send, the line MARK_AHEAD rows later (or the last): how far a mark reaches. */
  private readonly ahead = new Map<number, number>();
  /** Rows the checkpoint already had as created or updated. */
  private earlier = 0;
  /** Lines whose contact was scored, in this run or an earlier one. */
  private readonly scoredLines = new Set<number>();
  private readonly scoreErrors = new Map<number, string>();
  /** Lines refused because their contact exists (409, without --upsert): sent again, they fail again. */
  private readonly existing = new Set<number>();
  private progress?: Progress;

  constructor(
    private readonly ctx: Context,
    private readonly client: ApiClient,
    private readonly stopper: Stopper,
    private readonly checkpoint: Checkpoint | undefined,
    private readonly options: ImportOptions,
  ) {
    if (options.score) this.scorer = new Scorer(client, ctx, { signal: stopper.signal });
  }

  async run(plan: readonly Planned[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = plan.map(({ row, done }) => ({
      line: row.line,
      ok: done !== undefined,
      result: row.problem ? 'invalid' : done ? (done.state as RowResult) : 'pending',
      id: done?.id ?? null,
      email: typeof row.body?.email === 'string' ? row.body.email : null,
      error: row.problem ?? null,
    }));
    const toImport: Array<{ item: Planned; outcome: Outcome }> = [];
    plan.forEach((item, index) => {
      if (!item.row.body) return;
      if (!item.done) return void toImport.push({ item, outcome: outcomes[index]! });
      this.earlier++;
      if (item.done.scored) this.scoredLines.add(item.row.line);
      else if (this.scorer && item.done.state === 'created' && item.done.id) this.score(item.row.line, item.done.id);
    });
    const lines = toImport.map(({ item }) => item.row.line);
    lines.forEach((line, index) => this.ahead.set(line, lines[Math.min(index + MARK_AHEAD, lines.length - 1)]!));
    this.progress = startProgress(this.ctx.io, 'Importing', lines.length);
    /** --upsert: a row waits for the earlier rows with its email, and updates the contact they left. */
    const byEmail = new Map<string, Promise<string | undefined>>();
    // --concurrency requests on the wire; as many rows again may be waiting out a 429 meanwhile,
    // so that the others keep the shared pace (src/http/pace.ts).
    this.client.pace.maxInFlight = this.options.concurrency;
    await pMap(
      toImport,
      async ({ item, outcome }) => {
        if (!this.options.upsert) return this.importRow(item, outcome);
        // Rows start in file order, so an earlier row with this email is already under way.
        const email = String(item.row.body!.email).toLowerCase();
        const earlier = byEmail.get(email);
        const mine = (async () => this.importRow(item, outcome, earlier && (await earlier)))();
        byEmail.set(email, mine.then(() => outcome.id ?? undefined));
        return mine;
      },
      { concurrency: this.options.concurrency * 2 },
    );
    await Promise.all(this.scoring);
    this.progress.stop();
    return outcomes;
  }

  private get stopping(): boolean {
    return this.stopper.signal.aborted || this.halted !== undefined;
  }

  private async importRow(item: Planned, outcome: Outcome, earlierId?: string): Promise<void> {
    if (this.stopping) return;
    const { row } = item;
    const body = row.body!;
    const digest = this.options.digestOf?.(JSON.stringify(body));
    try {
      let id = earlierId;
      // A row sent before may exist already (its answer was lost); --upsert looks for the email anyway.
      if (id === undefined && (this.options.upsert || item.uncertain)) id = await findByEmail(this.client, String(body.email));
      let result: 'created' | 'updated';
      if (id !== undefined && !this.options.upsert) {
        result = 'created';
      } else {
        this.checkpoint?.sending(row.line, () => this.ahead.get(row.line) ?? row.line);
        if (id !== undefined) {
          await this.client.request('PATCH', fillPath(CONTACTS.update.path, { id }), { body, waitOutRateLimit: true });
          result = 'updated';
        } else {
          const data = await this.client.request('POST', CONTACTS.create.path, { body, waitOutRateLimit: true });
          const created = recordId(data);
          if (created === undefined) throw noRecordError('contact');
          id = created;
          result = 'created';
        }
      }
      this.checkpoint?.outcome(row.line, { digest, state: result, id });
      outcome.ok = true;
      outcome.result = result;
      outcome.id = id;
      outcome.error = null;
      this.failuresInARow = 0;
      if (result === 'created' && this.scorer) this.score(row.line, id);
    } catch (error) {
      // Not sent: the journal would not cover it. The row stays pending, and the import stops.
      if (error instanceof CheckpointUnwritable) {
        this.halted ??= error;
        return;
      }
      const failure = toCliError(error);
      const exists = failure.status === 409 && !this.options.upsert;
      if (exists) this.existing.add(row.line);
      const reason = exists ? `${failure.message} (--upsert updates the existing contact)` : failure.message;
      // No answer, or a 5xx: the service may have created the contact all the same.
      this.checkpoint?.outcome(row.line, { digest, state: 'failed', error: reason, uncertain: failure.status === undefined || failure.status >= 500 });
      outcome.ok = false;
      outcome.result = 'failed';
      outcome.error = reason;
      // For want of the service (no answer, a 5xx): a row the service refused (409, 422) says nothing of the next one.
      const serviceDown = failure.exitCode === ExitCode.network || (failure.status !== undefined && failure.status >= 500);
      this.failuresInARow = serviceDown ? this.failuresInARow + 1 : 0;
      if (STOPS_AT_ONCE.has(failure.exitCode) || this.failuresInARow >= STOP_AFTER_FAILURES) this.halted ??= failure;
    }
    this.finished++;
    this.showProgress();
  }

  /** Queues scoring of a created contact; the scorer keeps within the rate limit. */
  private score(line: number, id: string): void {
    const scorer = this.scorer!;
    this.scoring.push(
      scorer.score(id).then(
        () => {
          this.checkpoint?.outcome(line, { scored: true });
          this.scoredLines.add(line);
          this.showProgress();
        },
        (error) => {
          // Stopped: not scored, and not an error; --resume scores it.
          if (!this.stopper.signal.aborted) this.scoreErrors.set(line, toCliError(error).message);
        },
      ),
    );
  }

  private showProgress(): void {
    this.progress?.update(this.finished, this.scorer ? `scored ${this.scoredLines.size} (at most ${SCORE_CALLS_PER_WINDOW} a minute)` : '');
  }

  report(outcomes: Outcome[], { rows, numberedBy }: ImportFile, errorsFile: string | undefined): Result {
    const checkpoint = this.checkpoint;
    for (const [line, message] of this.scoreErrors) {
      const outcome = outcomes.find((candidate) => candidate.line === line);
      if (outcome) outcome.error = `created, but scoring failed: ${message}`;
    }
    const notImported = outcomes.filter((outcome) => !outcome.ok);
    const unscored = this.scorer ? outcomes.filter((outcome) => outcome.result === 'created' && !this.scoredLines.has(outcome.line)).length : 0;
    const complete = notImported.length === 0 && unscored === 0 && !this.stopping;
    checkpoint?.close(complete);
    if (!complete && checkpoint?.failure) this.halted ??= checkpoint.failure;

    const parts = [countsOf(outcomes)];
    if (this.earlier > 0) parts.push(`${this.earlier} of them in an earlier run`);
    if (this.scorer) parts.push(`${this.scoredLines.size} scored`);
    const result = list(outcomes, { ...REPORT_VIEW, summary: parts.join('; ') });
    const resumeHint = checkpoint ? `run the same command with --resume to finish (progress is in ${checkpoint.path})` : undefined;
    if (this.stopper.signal.aborted) return { ...result, failure: new CliError('interrupted', ExitCode.interrupted, { code: 'interrupted', hint: resumeHint }) };
    if (this.halted) {
      return { ...result, failure: new CliError(`import stopped: ${this.halted.message}`, this.halted.exitCode, { status: this.halted.status, code: this.halted.code, hint: resumeHint ?? this.halted.hint }) };
    }
    if (complete) return result;
    const lines = notImported.map((outcome) => outcome.line);
    const message = lines.length > 0 ? `${lines.length} of ${outcomes.length} rows were not imported: ${numbered(lines, numberedBy)}` : `${unscored} created contacts were not scored`;
    return { ...result, failure: new CliError(message, ExitCode.partial, { code: 'partial_failure', hint: this.partialHint(lines, { rows, numberedBy }, errorsFile, resumeHint) }) };
  }

  /**
   * What finishes an import some rows of which were not imported. --resume sends a row again, which
   * helps a row that failed for want of the service or was fixed in the file; a row whose contact
   * exists (a 409, or an email an earlier row has) would fail again: --upsert is what imports it.
   */
  private partialHint(lines: readonly number[], { rows, numberedBy }: Pick<ImportFile, 'rows' | 'numberedBy'>, errorsFile: string | undefined, resumeHint: string | undefined): string | undefined {
    const repeated = new Set(rows.filter((row) => row.emailOf !== undefined).map((row) => row.line));
    const exists = lines.filter((line) => this.existing.has(line) || repeated.has(line));
    const others = lines.filter((line) => !exists.includes(line));
    const where = errorsFile && lines.length > 0 ? `the rows and reasons are in ${errorsFile}; ` : '';
    // An invalid row is invalid again until it is fixed in the file: --resume alone would not import it.
    const invalid = others.filter((line) => rows.some((row) => row.line === line && row.problem !== undefined));
    const fix = where ? `${where}fix them, then ` : invalid.length > 0 ? `fix ${numbered(invalid, numberedBy)} in the file (the report says why), then ` : '';
    const hints: string[] = [];
    // No row left but some not scored: --resume scores them.
    if ((others.length > 0 || exists.length === 0) && resumeHint) hints.push(`${fix}${resumeHint}`);
    if (exists.length > 0) {
      const said = hints.length > 0 ? '' : where;
      hints.push(`${said}${numbered(exists, numberedBy)} hold${exists.length > 1 ? '' : 's'} an email the workspace (or an earlier row) has: run the same command with --upsert to update those contacts, or leave the rows out; --resume would send them again, to fail again`);
    }
    return hints.length > 0 ? hints.join('; ') : undefined;
  }
}

/** The live contact with this email, if any (compared without regard to case). */
async function findByEmail(client: ApiClient, email: string): Promise<string | undefined> {
  const wanted = email.toLowerCase();
  for await (const contact of walk(client, CONTACTS.list.path, { search: email }, { key: CONTACTS.list.listKey })) {
    const id = recordId(contact);
    if (id !== undefined && isObject(contact) && typeof contact.email === 'string' && contact.email.toLowerCase() === wanted) return id;
  }
  return undefined;
}

/** Invalid and failed rows as CSV: the row as it was read, its line number and the reason. */
async function writeErrors(path: string, input: ImportFile, outcomes: readonly Outcome[], like: { encoding: TextEncoding; bom: boolean }): Promise<void> {
  const { stringify } = await import('csv-stringify/sync');
  const lines = new Map(outcomes.filter((outcome) => outcome.result === 'invalid' || outcome.result === 'failed').map((outcome) => [outcome.line, outcome.error ?? '']));
  const records = [[...input.columns, 'line', 'reason']];
  for (const row of input.rows) {
    const reason = lines.get(row.line);
    if (reason !== undefined) records.push([...input.columns.map((_, index) => row.cells[index] ?? ''), String(row.line), reason]);
  }
  const bytes = encodeText(stringify(records, CSV_OPTIONS), like.encoding, like.bom);
  try {
    // Replaced whole and flushed: a crash or a full disk leaves the old file (or none), never half of
    // one that the user would fix and import again; a link's target is, the link kept. A pipe or a
    // device (/dev/stderr) is written as it is.
    if (!existsSync(path)) writeFileAtomic(path, bytes, 0o666);
    else if (statSync(path).isFile()) writeFileAtomic(realpathSync(path), bytes, 0o666);
    else writeFileSync(path, bytes);
  } catch (error) {
    throw new CliError(cannotUseFile('write', `--errors ${path}`, error), ExitCode.service, { code: 'errors_file' });
  }
}

/** "lines 2, 5" (or "items 2, 5": ImportFile.numberedBy), the first ten at most. */
function numbered(numbers: readonly number[], numberedBy: RowNumbering): string {
  return `${numberedBy}${numbers.length > 1 ? 's' : ''} ${firstTen(numbers.map(String))}`;
}
