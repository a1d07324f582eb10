// crm RESOURCE get of several ids, or `-`, in real processes over the network against the test
// server, whose request log says what was sent: one command's JSON piped into another's get, and
// a bad id among several refused before anything is sent. The rest is tested in-process
// (test/commands/bulk.test.ts).
import { describe, expect, it } from 'vitest';
import { crm, json } from '../helpers/crm.js';
import { useTestServer } from '../helpers/server.js';

const live = useTestServer();
const sent = () => live.server.requests().map((request) => `${request.method} ${request.url}`);

describe('crm contacts get of several, in a process', () => {
  it('`crm contacts list --json | crm contacts get - --json`: the same records in the same order, one GET each', async () => {
    const listed = await crm(['contacts', 'list', '--limit', '5', '--json'], { env: live.env });
    expect(listed.code, listed.stderr).toBe(0);
    live.server.log.length = 0;
    const result = await crm(['contacts', 'get', '-', '--json'], { env: live.env, input: listed.stdout });
    expect(result.code, result.stderr).toBe(0);
    const records = json(listed) as Array<{ id: string }>;
    expect((json(result) as Array<{ id: string }>).map((record) => record.id)).toEqual(records.map((record) => record.id));
    expect(sent().sort()).toEqual(records.map((record) => `GET /api/v1/contacts/${record.id}`).sort());
  });

  it('one id that is not found among several: the others printed, it on stderr, exit 7', async () => {
    const [first] = json(await crm(['contacts', 'list', '--limit', '1', '--json'], { env: live.env })) as Array<{ id: string }>;
    const result = await crm(['contacts', 'get', 'con_gone', first!.id, '--json'], { env: live.env });
    expect(result.code).toBe(7);
    expect((json(result) as Array<{ id: string }>).map((record) => record.id)).toEqual([first!.id]);
    expect(result.stderr).toContain('con_gone: contact con_gone not found\n');
  });

  it('a bad id among several: exit 2 naming it, and the server received nothing', async () => {
    const result = await crm(['contacts', 'get', 'con_a', 'con/b', 'ada@example.com'], { env: live.env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^crm: invalid ID "con\/b"/);
    expect(live.server.requests()).toEqual([]);
  });
});
