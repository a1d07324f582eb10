// Long texts from where people write them (issue 22, point 7): --body-file FILE|- for every long text
// field, and at a terminal with no --body the editor ($VISUAL, $EDITOR, as git picks it), here a
// fake editor script run for real. An empty text is refused, exit 2, nothing sent.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { BASE_URL, homeEnv, json, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const dir = mkdtempSync(join(tmpdir(), 'crm-text-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const writes = () => ws.requests().filter((request) => request.method !== 'GET');
const sentBody = () => JSON.parse(writes()[0]!.body);

// The fake editor: records the file it was given and its template, then writes FAKE_TEXT above it
// (an editor keeps what is below the scissors line), or exits with FAKE_EXIT.
const editorScript = file(
  'editor.mjs',
  `import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
const path = process.argv.at(-1);
const template = readFileSync(path, 'utf8');
appendFileSync(process.env.FAKE_LOG, JSON.stringify({ name: process.env.FAKE_NAME, args: process.argv.slice(2), template }) + '\\n');
if (process.env.FAKE_EXIT) process.exit(Number(process.env.FAKE_EXIT));
writeFileSync(path, (process.env.FAKE_TEXT ?? '') + template);
`,
);
const editor = (name: string, ...args: string[]) => [`'${process.execPath}'`, `'${editorScript}'`, ...args, `--as=${name}`].join(' ');
const terminal = { stdin: true, stderr: true, stdout: true };

function editorEnv(extra: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; log: () => Array<{ name: string; args: string[]; template: string }> } {
  const log = join(mkdtempSync(join(tmpdir(), 'crm-editor-')), 'log');
  writeFileSync(log, '');
  const env = { ...homeEnv(ws.home), PATH: process.env.PATH, TERM: 'xterm-256color', CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, FAKE_LOG: log, ...extra };
  return { env, log: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) };
}

describe('--body-file and the other long texts\' file flags', () => {
  it('sends the file\'s text (trailing white space trimmed, lines beginning with # kept)', async () => {
    const note = file('note.md', '# Call notes\n\nAsked for a demo.\n  - next week\n\n');
    const result = await run(['contacts', 'notes', 'add', DEMO.contact, '--body-file', note, '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(sentBody()).toEqual({ body: '# Call notes\n\nAsked for a demo.\n  - next week' });
    expect(json(result)).toMatchObject({ body: '# Call notes\n\nAsked for a demo.\n  - next week' });
  });

  it('reads - from stdin', async () => {
    const result = await run(['contacts', 'notes', 'add', DEMO.contact, '--body-file', '-'], { ws, stdin: 'From a pipe\n' });
    expect(result.code, result.stderr).toBe(0);
    expect(sentBody()).toEqual({ body: 'From a pipe' });
  });

  it('is there for every long text: a task\'s and a sequence\'s description, on create and update', async () => {
    const description = file('description.txt', 'Line one\nLine two\n');
    const task = await run(['tasks', 'create', '--title', 'Texted', '--description-file', description, '--json'], { ws });
    expect(task.code, task.stderr).toBe(0);
    expect(sentBody()).toMatchObject({ title: 'Texted', description: 'Line one\nLine two' });
    const updated = await run(['tasks', 'update', json(task).id, '--description-file', '-'], { ws, stdin: 'Changed\n' });
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(writes()[1]!.body)).toEqual({ description: 'Changed' });
    const sequence = await run(['sequences', 'create', '--name', 'Texted', '--description-file', description], { ws });
    expect(sequence.code, sequence.stderr).toBe(0);
    expect(JSON.parse(writes()[2]!.body)).toMatchObject({ description: 'Line one\nLine two' });
  });

  it('refuses an empty text, the flag and its file flag together, two readers of stdin, a missing file: exit 2, nothing sent', async () => {
    const empty = file('empty.md', '\n  \n');
    for (const [argv, stdin, message] of [
      [['--body-file', empty], undefined, `crm: --body-file ${empty}: the note text is empty, nothing was sent`],
      [['--body-file', '-'], ' \n\n', 'crm: --body-file (stdin): the note text is empty, nothing was sent'],
      [['--body', 'x', '--body-file', empty], undefined, 'crm: --body and --body-file both give the note text'],
      [['--data', '-', '--body-file', '-'], '{}', 'crm: --data - and --body-file - both read stdin'],
      [['--body-file', join(dir, 'missing.md')], undefined, `crm: cannot read --body-file ${join(dir, 'missing.md')}: no such file or directory`],
    ] as const) {
      for (const extra of [[], ['--dry-run']]) {
        const result = await run(['contacts', 'notes', 'add', DEMO.contact, ...argv, ...extra], { ws, stdin });
        expect(result.code, argv.join(' ')).toBe(2);
        expect(result.stderr.split('\n')[0]).toBe(message);
      }
    }
    expect(ws.requests()).toEqual([]);
  });

  it('cannot read stdin when the ids come from it too (crm tasks update - --description-file -): exit 2, nothing sent', async () => {
    const task = ws.api('POST', '/tasks', { title: 'Two readers' }).data;
    const result = await run(['tasks', 'update', '-', '--description-file', '-'], { ws, stdin: `${task.id}\n` });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: the ids (-) and --description-file - both read stdin');
    expect(ws.requests()).toEqual([]);
    const fromFile = await run(['tasks', 'update', '-', '--description-file', file('many.txt', 'For each\n')], { ws, stdin: `${task.id}\n` });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(writes().map((request) => JSON.parse(request.body))).toEqual([{ description: 'For each' }]);
  });

  it('without a terminal and without a text, names both flags: exit 2', async () => {
    const result = await run(['contacts', 'notes', 'add', DEMO.contact], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: missing required --body (or --body-file)');
    expect(ws.requests()).toEqual([]);
  });
});

describe('the editor, at a terminal with no --body', () => {
  it('opens $VISUAL on a template, and sends what was written above the scissors line', async () => {
    const { env, log } = editorEnv({ VISUAL: editor('visual'), EDITOR: editor('editor'), FAKE_TEXT: '\n# Agenda\nDemo on Tuesday.\n\n' });
    const result = await run(['contacts', 'notes', 'add', DEMO.contact, '--json'], { ws, env, tty: terminal });
    expect(result.code, result.stderr).toBe(0);
    expect(sentBody()).toEqual({ body: '# Agenda\nDemo on Tuesday.' });
    const [opened] = log();
    expect(log()).toHaveLength(1);
    expect(opened!.args.at(-1)).toMatch(/crm-body\.md$/);
    expect(opened!.args).toContain('--as=visual');
    expect(opened!.template).toContain('\n# ------------------------ >8 ------------------------\n');
    expect(opened!.template).toContain(`# The note text for crm contacts notes add ${DEMO.contact}.\n`);
    // The hint while it is open, wiped once it closes, as git does.
    expect(result.stderr).toContain('hint: Waiting for your editor to close the file... \r\u001b[K');
  });

  it('takes $EDITOR when $VISUAL is unset, or when the terminal is dumb; a command with arguments runs through the shell', async () => {
    for (const extra of [{ EDITOR: editor('editor', '--wait') }, { TERM: 'dumb', VISUAL: editor('visual'), EDITOR: editor('editor', '--wait') }]) {
      const { env, log } = editorEnv({ ...extra, FAKE_TEXT: 'Written in EDITOR' });
      const result = await run(['contacts', 'notes', 'add', DEMO.contact], { ws, env, tty: terminal });
      expect(result.code, result.stderr).toBe(0);
      expect(log().map((entry) => entry.args.slice(0, 2))).toEqual([['--wait', '--as=editor']]);
    }
    expect(writes().map((request) => JSON.parse(request.body))).toEqual([{ body: 'Written in EDITOR' }, { body: 'Written in EDITOR' }]);
  });

  it('an empty text, an editor that fails, no editor on a dumb terminal: exit 2, nothing sent', async () => {
    for (const [extra, message] of [
      [{ VISUAL: editor('visual'), FAKE_TEXT: '\n \n' }, 'crm: the note text is empty: nothing was sent'],
      [{ EDITOR: ':' }, 'crm: the note text is empty: nothing was sent'],
      [{ EDITOR: editor('editor'), FAKE_EXIT: '3' }, `crm: the editor "${editor('editor')}" failed (exit 3): nothing was sent`],
      [{ TERM: 'dumb' }, 'crm: no editor to write the note text in: the terminal is dumb and EDITOR is not set'],
    ] as const) {
      const { env } = editorEnv(extra);
      for (const dry of [[], ['--dry-run']]) {
        const result = await run(['contacts', 'notes', 'add', DEMO.contact, ...dry], { ws, env, tty: terminal });
        expect(result.code, JSON.stringify(extra)).toBe(2);
        expect(result.stderr).toContain(`${message}\n`);
      }
    }
    expect(ws.requests()).toEqual([]);
  });

  it('is not opened when the text is given, nor with --no-input', async () => {
    const { env, log } = editorEnv({ EDITOR: editor('editor'), FAKE_TEXT: 'never' });
    expect((await run(['contacts', 'notes', 'add', DEMO.contact, '--body', 'Given'], { ws, env, tty: terminal })).code).toBe(0);
    const refused = await run(['contacts', 'notes', 'add', DEMO.contact, '--no-input'], { ws, env, tty: terminal });
    expect(refused.code).toBe(2);
    expect(log()).toEqual([]);
    expect(writes().map((request) => JSON.parse(request.body))).toEqual([{ body: 'Given' }]);
  });
});
