// A write the service answers with no record (204 No Content, or 200 with an empty body): a workspace
// may answer so. The write took effect: crm says what it knows (the id), notes on stderr that the
// service sent no record, and exits 0 (docs/api-assumptions.md, Tolerance). It was exit 6.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { json, run, useWorkspace } from '../helpers/inprocess.js';
import { startMcp } from '../helpers/mcp.js';

const ws = useWorkspace();

const EMPTY = [
  ['204 No Content', { status: 204, body: '' }],
  ['200 with an empty body', { status: 200, body: '' }],
  ['200 with data null', { status: 200, body: '{"data": null, "error": null}' }],
] as const;

const NOTICE = /^crm: warning: the service answered with no \w+ \(no content\): the write took effect; shown is what crm knows of it$/m;

describe.each(EMPTY)('a write answered %s', (_, answer) => {
  it('contacts update: the id, a notice on stderr, exit 0; the update took effect', async () => {
    ws.fault({ match: /^PATCH \/api\/v1\/contacts\//, handled: true, ...answer });
    const result = await run(['contacts', 'update', DEMO.contact, '--company', 'Quiet Answers Ltd', '--json'], { ws });
    expect(result.stderr).toMatch(NOTICE);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ id: DEMO.contact });
    expect(ws.api('GET', `/contacts/${DEMO.contact}`).data.company).toBe('Quiet Answers Ltd');
  });

  it('deals stage: the id, a notice, exit 0', async () => {
    ws.fault({ match: /^POST \/api\/v1\/deals\/[^/]+\/stage$/, handled: true, ...answer });
    const result = await run(['deals', 'stage', DEMO.deal, 'negotiation', '--json'], { ws });
    expect(result.stderr).toMatch(NOTICE);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ id: DEMO.deal });
  });

  it('contacts enroll: the contact, a notice, exit 0', async () => {
    const sequence = ws.api('POST', '/sequences', { name: 'Quiet sequence' }).data.id;
    ws.fault({ match: /^POST \/api\/v1\/contacts\/[^/]+\/sequences$/, handled: true, ...answer });
    const result = await run(['contacts', 'enroll', DEMO.contact, '--sequence', sequence, '--json'], { ws });
    expect(result.stderr).toMatch(NOTICE);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ contact_id: DEMO.contact });
  });

  it('contacts notes add: the contact, a notice, exit 0', async () => {
    ws.fault({ match: /^POST \/api\/v1\/contacts\/[^/]+\/notes$/, handled: true, ...answer });
    const result = await run(['contacts', 'notes', 'add', DEMO.contact, '--body', 'Called; no answer', '--json'], { ws });
    expect(result.stderr).toMatch(NOTICE);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ contact_id: DEMO.contact });
  });

  it('tasks complete and several contacts updated: each row succeeds, exit 0', async () => {
    ws.fault({ match: /^POST \/api\/v1\/tasks\/[^/]+\/complete$/, handled: true, ...answer });
    const one = await run(['tasks', 'complete', DEMO.task, '--json'], { ws });
    expect(one.code).toBe(0);
    expect(json(one)).toEqual([{ id: DEMO.task, ok: true, result: 'completed', error: null, record: null }]);
    const [first, second] = ws.api('GET', '/contacts?limit=2').data.contacts.map((contact: { id: string }) => contact.id);
    ws.fault({ match: /^PATCH \/api\/v1\/contacts\//, handled: true, times: 2, ...answer });
    const many = await run(['contacts', 'update', first, second, '--company', 'Quiet Answers Ltd', '--json'], { ws });
    expect(many.code).toBe(0);
    expect(json(many).map((row: { ok: boolean; result: string }) => [row.ok, row.result])).toEqual([
      [true, 'updated'],
      [true, 'updated'],
    ]);
  });
});

describe('a write answered with no record, as an MCP tool', () => {
  it('contacts_update: the id, and a second text saying the service sent no record; not an error', async () => {
    const session = await startMcp({ ws });
    try {
      ws.fault({ match: /^PATCH \/api\/v1\/contacts\//, handled: true, status: 204, body: '' });
      const answer = (await session.client.callTool({ name: 'contacts_update', arguments: { ids: [DEMO.contact], company: 'Quiet Answers Ltd' } })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
        structuredContent: unknown;
      };
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toEqual({ id: DEMO.contact });
      expect(answer.content.map((part) => part.text)).toEqual([JSON.stringify({ id: DEMO.contact }), expect.stringMatching(/^the service answered with no contact \(no content\)/)]);
    } finally {
      await session.close();
    }
  });
});

describe('a create answered with no record', () => {
  it('stays a malformed answer (exit 6): the new record has no id crm could give a script', async () => {
    ws.fault({ match: /^POST \/api\/v1\/contacts$/, handled: true, status: 204, body: '' });
    const result = await run(['contacts', 'create', '--name', 'Ada Quiet', '--email', 'ada.quiet@example.com'], { ws });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^crm: malformed response from the service \(no contact in the answer\)/);
  });
});
