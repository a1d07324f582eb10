// The recipes work as written on a fresh install. "A morning in the terminal": each of its command
// lines, in order, against one fresh sandbox workspace, and what it says happened did. "Export":
// the warning it shows is the one a fresh sandbox's export prints.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { parseCommandLine, runPipeline } from '../helpers/examples.js';
import { openWorkspace } from '../helpers/inprocess.js';

const recipe = readFileSync(new URL('../../docs/recipes/a-morning-in-the-terminal.md', import.meta.url), 'utf8');

/** The crm lines of its ```sh blocks, in order, without their comments. */
const lines = [...recipe.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((match) => match[1]!.split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.startsWith('crm '));

describe('docs/recipes/a-morning-in-the-terminal.md', async () => {
  const ws = await openWorkspace();
  afterAll(() => ws.close());
  const overdue = () => ws.api('GET', '/tasks?status=open&overdue=true&limit=50').data.total as number;
  const overdueBefore = overdue();

  it('uses status, tasks --due and view', () => {
    for (const command of ['crm status', 'crm tasks list --due', 'crm contacts view', 'crm accounts view', 'crm deals view']) expect(lines.some((line) => line.startsWith(command)), command).toBe(true);
  });

  it.each(lines)('%s', async (line) => {
    const outcome = await runPipeline(parseCommandLine(line), ws);
    expect(outcome.code, outcome.stderr).toBe(0);
  });

  it('did what it says: the note, the task, the stage, the enrolment, two overdue tasks fewer', () => {
    const notes = ws.api('GET', `/contacts/${DEMO.contact}/notes?limit=50`).data.notes;
    expect(notes[0].body).toBe('Wants a pilot for the EU team; send pricing Friday');
    const tasks = ws.api('GET', `/tasks?contact_id=${DEMO.contact}&limit=50`).data.tasks;
    expect(tasks.find((task: any) => task.title === 'Send EU pilot pricing')).toMatchObject({ priority: 'high', status: 'open' });
    expect(ws.api('GET', `/deals/${DEMO.deal}`).data.stage).toBe('qualification');
    expect(ws.api('GET', `/sequences/${DEMO.sequence}/contacts?limit=50`).data.contacts.map((contact: any) => contact.id)).toContain(DEMO.contact);
    expect(overdue()).toBe(overdueBefore - 2);
  });
});

describe('docs/recipes/export.md', () => {
  it('shows the warning an export of a fresh sandbox prints, word for word', async () => {
    const text = readFileSync(new URL('../../docs/recipes/export.md', import.meta.url), 'utf8');
    const shown = /```\n(crm: warning: .*)\n```/.exec(text)![1];
    const ws = await openWorkspace();
    try {
      const outcome = await runPipeline(parseCommandLine('crm contacts export'), ws);
      expect(outcome.code).toBe(0);
      expect(outcome.stderr).toBe(`${shown}\n`);
    } finally {
      ws.close();
    }
  });
});
