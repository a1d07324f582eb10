// A long text written in the user's editor, as git opens one for a commit message: $VISUAL (unless
// the terminal is dumb), then $EDITOR, then vi; the command runs through the shell, so `code --wait`
// works; `:` leaves the text as it is. The file holds a template whose part from the scissors line on
// is cut away, so a text may hold lines that begin with # (Markdown headings).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usageError } from './errors.js';

/** git's scissors line (commit --cleanup=scissors): it and everything below it is not the text. */
const SCISSORS = '# ------------------------ >8 ------------------------';

export interface EditRequest {
  /** What is written, for the template and messages: "the note". */
  what: string;
  /** Lines for the template, below the scissors line: what the text is for. */
  about: readonly string[];
  /** The file's name (its extension picks the editor's syntax): crm-body.md. */
  fileName: string;
}

/** The editor command as git picks it; undefined when the terminal is dumb and none is set. */
function editorCommand(env: NodeJS.ProcessEnv): string | undefined {
  const dumb = env.TERM === undefined || env.TERM === 'dumb';
  const chosen = (!dumb && env.VISUAL) || env.EDITOR;
  if (chosen) return chosen;
  return dumb ? undefined : 'vi';
}

/**
 * Opens the editor on a template and returns the text written above the scissors line, trimmed.
 * An empty text, an editor that fails or none to run is exit 2: nothing is sent.
 */
export async function editText(env: NodeJS.ProcessEnv, request: EditRequest, { terminal, signal }: { terminal?: (text: string) => void; signal: AbortSignal }): Promise<string> {
  const editor = editorCommand(env);
  if (!editor) throw usageError(`no editor to write ${request.what} in: the terminal is dumb and EDITOR is not set`, 'set EDITOR, or pass the text with a flag or a file');
  const dir = mkdtempSync(join(tmpdir(), 'crm-edit-'));
  const file = join(dir, request.fileName);
  try {
    writeFileSync(file, `\n${SCISSORS}\n# Do not modify or remove the line above.\n# Everything below it will be ignored.\n${request.about.map((line) => `# ${line}\n`).join('')}`, { mode: 0o600 });
    if (editor !== ':') await runEditor(editor, file, env, terminal, signal);
    const text = cleanUp(readFileSync(file, 'utf8'));
    if (text === '') throw usageError(`${request.what} is empty: nothing was sent`);
    return text;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `terminal`: writes to a terminal's stderr, when it is one. */
async function runEditor(editor: string, file: string, env: NodeJS.ProcessEnv, terminal: ((text: string) => void) | undefined, signal: AbortSignal): Promise<void> {
  // As git: a hint while a graphical editor is open, wiped once it closes.
  terminal?.('hint: Waiting for your editor to close the file... ');
  // The shell splits the command (`code --wait`); the file is its argument, never part of the text run.
  // On Windows, cmd.exe splits it (no sh there), the file quoted.
  const options = { stdio: 'inherit', env, signal } as const;
  const child = process.platform === 'win32' ? spawn(`${editor} "${file}"`, { ...options, shell: true }) : spawn('sh', ['-c', `${editor} "$@"`, editor, file], options);
  const outcome = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('exit', (code) => resolve({ code }));
  });
  terminal?.('\r\u001b[K');
  if (signal.aborted) throw signal.reason;
  if (outcome.error) throw usageError(`cannot run the editor "${editor}": ${outcome.error.message}`);
  if (outcome.code !== 0) throw usageError(`the editor "${editor}" failed (exit ${outcome.code ?? 'by a signal'}): nothing was sent`);
}

/** The text above the scissors line, without leading blank lines and trailing white space. */
function cleanUp(content: string): string {
  const lines = content.replace(/\r\n/g, '\n').split('\n');
  const cut = lines.indexOf(SCISSORS);
  return (cut >= 0 ? lines.slice(0, cut) : lines).join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}
