// A person at a terminal, in-process: a scripted prompter answers, the streams say they are
// terminals. The real prompts, keys and Ctrl-C are in test/e2e/interactive.test.ts (a pty).
import { describe, expect, it } from 'vitest';
import { run, scriptedPrompter, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const terminal = { stdin: true, stdout: true, stderr: true, columns: 100 };

describe('pickers', () => {
  it('deals stage without a stage: pick one from the pipeline, the current one offered first', async () => {
    const deal = ws.api('GET', '/deals?stage=negotiation&limit=1').data.deals[0];
    const prompter = scriptedPrompter(['closed_won']);
    const result = await run(['deals', 'stage', deal.id], { ws, tty: terminal, prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked).toEqual([`Move ${deal.name} to which stage? [prospecting, qualification, proposal, negotiation, closed_won, closed_lost]`]);
    expect(JSON.parse(ws.requests(/POST/)[0]!.body)).toEqual({ stage: 'closed_won' });
    expect(result.stdout).toMatch(/Activity logged: stage_change negotiation → closed_won/);
  });

  it('deals create asks for the name, then amount and stage (a select of the stages), account and contact (pickers: test/commands/keys.test.ts)', async () => {
    const prompter = scriptedPrompter(['Prompted Deal', '4200', 'proposal', '', '']);
    const result = await run(['deals', 'create'], { ws, tty: terminal, prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked.slice(0, 3)).toEqual(['Deal name', 'Deal value (optional)', 'Pipeline stage (id or name) [prospecting, qualification, proposal, negotiation, closed_won, closed_lost]']);
    expect(prompter.asked.slice(3).map((question) => question.split(' [')[0])).toEqual(['Account (optional)', 'Primary contact (optional)']);
    expect(JSON.parse(ws.requests(/POST/)[0]!.body)).toEqual({ name: 'Prompted Deal', amount: 4200, stage: 'proposal' });
  });

  it('sequences create offers the statuses the sandbox knows, active first', async () => {
    const prompter = scriptedPrompter(['Prompted Sequence', 'paused']);
    const result = await run(['sequences', 'create'], { ws, tty: terminal, prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked).toEqual(['Sequence name', 'Sequence status [active, paused, archived]']);
  });

  it('ai accept without ids: a checkbox of the pending suggestions', async () => {
    const pending = ws.api('GET', '/ai/suggestions?limit=50').data.suggestions;
    const prompter = scriptedPrompter([[pending[0].id, pending[1].id]]);
    const result = await run(['ai', 'accept'], { ws, tty: terminal, prompter });
    expect(result.code).toBe(0);
    const accepted = ws.requests(/POST/).map((request) => request.url);
    expect(accepted.sort()).toEqual([`/api/v1/ai/suggestions/${pending[0].id}/accept`, `/api/v1/ai/suggestions/${pending[1].id}/accept`].sort());
    expect(result.stderr).toBe('2 accepted\n');
  });

  it('contacts enroll without --sequence: pick one of the active sequences (archived ones are not offered)', async () => {
    const contact = ws.api('POST', '/contacts', { name: 'Pick Seq', email: 'pick-seq@example.com' }).data;
    const sequence = ws.api('POST', '/sequences', { name: 'Newest Sequence' }).data;
    const archived = ws.api('POST', '/sequences', { name: 'Old Sequence', status: 'archived' }).data;
    const prompter = scriptedPrompter([sequence.id]);
    const result = await run(['contacts', 'enroll', contact.id], { ws, tty: terminal, prompter });
    expect(result.code).toBe(0);
    expect(prompter.asked[0]).toContain(sequence.id);
    expect(prompter.asked[0]).not.toContain(archived.id);
    expect(JSON.parse(ws.requests(/POST/)[0]!.body)).toEqual({ sequence_id: sequence.id });
  });

  it('a delete confirmation names the record; no deletes nothing (exit 130)', async () => {
    const contact = ws.api('POST', '/contacts', { name: 'Keep Me', email: 'keep-me-inprocess@example.com' }).data;
    const prompter = scriptedPrompter([false]);
    const result = await run(['contacts', 'delete', contact.id], { ws, tty: terminal, prompter });
    expect(result.code).toBe(130);
    expect(prompter.asked).toEqual([`Delete contact ${contact.id} (Keep Me)?`]);
    expect(ws.requests(/DELETE/)).toHaveLength(0);
    const yes = await run(['contacts', 'delete', contact.id], { ws, tty: terminal, prompter: scriptedPrompter([true]) });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toBe(`✓ Deleted contact ${contact.id}\n`);
  });

  it('Ctrl-C at a prompt exits 130 and sends nothing', async () => {
    const result = await run(['contacts', 'create'], { ws, tty: terminal, prompter: scriptedPrompter([{ cancel: true }]) });
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('crm: interrupted\n');
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('terminal views', () => {
  it('pipeline deals draws a bar chart of the totals on a terminal, with the totals under it', async () => {
    const result = await run(['pipeline', 'deals'], { ws, tty: terminal });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\x1b\[1m\x1b\[36mNAME/); // a coloured header on a terminal
    expect(result.stdout.replace(/\x1b\[\d+m/g, '')).toMatch(/NAME\s+COUNT\s+TOTAL_VALUE\s+ID\s+CHART/);
    expect(result.stdout).toContain('█');
    expect(result.stdout).toMatch(/\d+ deals, total value [\d,]+\n$/);
  });

  it('search groups results by type on a terminal', async () => {
    const result = await run(['search', 'globex'], { ws, tty: terminal });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/CONTACTS \(\d+\)/);
    expect(result.stdout).toMatch(/ACCOUNTS \(\d+\)/);
  });
});
