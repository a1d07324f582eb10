// The recipe "a morning in the terminal" works as written on a fresh install: each of its command
// lines, in order, against one fresh sandbox workspace, and what it says happened did.
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
