// crm mcp as an agent's client sees it: the SDK's own client spawns the built `crm mcp` over stdio
// against the test server (the sandbox served over loopback HTTP behind a logging proxy), lists the
// tools, calls every one, and checks that bad arguments send nothing. One server process serves most
// of the file; --read-only and --toolsets get one more.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { GROUP_NAMES } from '../../src/registry/types.js';
import { chunksWith, loadedUpFront } from '../helpers/bundle.js';
import { CRM_BIN, crm, freshHome } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { ENDPOINT_COMMANDS } from '../helpers/tree.js';

interface Connection {
  client: Client;
  stderr: () => string;
}

async function connect(args: string[], env: NodeJS.ProcessEnv): Promise<Connection> {
  const variables = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [CRM_BIN, 'mcp', ...args], env: variables, stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'crm-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

type CallResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: any };

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

const textOf = (result: CallResult) => result.content.map((part) => part.text ?? '').join('\n');

/** "GET /contacts/{id}/notes" as a pattern of the proxy's log ("GET /api/v1/contacts/x/notes?limit=21"). */
function endpointPattern(method: string, path: string): RegExp {
  const pathPattern = path.replace(/\{\w+\}/g, '[^/?]+');
  return new RegExp(`^${method} /api/v1${pathPattern}(\\?|$)`);
}

const live = useTestServer();
let main: Connection;
beforeAll(async () => {
  main = await connect([], live.env);
});
afterAll(() => main.client.close());

const unique = `${Date.now()}`;
const ajv = new Ajv({ strict: false });

describe('crm mcp: the tools', () => {
  it('offers every endpoint of the registry as a tool, with its group, schema, example and annotations', async () => {
    const { tools } = await main.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ENDPOINT_COMMANDS.map((op) => op.name).sort());
    expect(new Set(tools.map((tool) => tool._meta?.group))).toEqual(new Set(GROUP_NAMES));
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const op of ENDPOINT_COMMANDS) {
      const tool = byName.get(op.name)!;
      expect(tool._meta?.group, op.name).toBe(op.group);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      const takesArguments = Object.keys(tool.inputSchema.properties ?? {}).length > 0;
      expect(tool.description, op.name).toMatch(takesArguments ? /\nExample: \{/ : /Takes no arguments/);
      // The example is arguments the tool's own schema accepts.
      const example = /\nExample: (\{.*\})/.exec(tool.description ?? '')?.[1];
      if (example) expect(ajv.validate(tool.inputSchema, JSON.parse(example)), `${op.name}: ${ajv.errorsText()}`).toBe(true);
      // Nothing of the command line (terminals, stdin, flags) in what an agent reads.
      expect(tool.description, op.name).not.toMatch(/terminal|stdin|--[a-z]/);
      const reads = op.method === 'GET';
      // deals_stage and tasks_complete make an update's change: they carry its hints.
      expect(tool.annotations, op.name).toMatchObject({ readOnlyHint: reads, destructiveHint: op.kind === 'delete' || op.kind === 'update' || op.mcp.sameChangeAs?.endsWith('_update') === true });
      // Only enrolling reaches outside the workspace: a sequence emails the contact.
      expect(tool.annotations?.openWorldHint, op.name).toBe(op.name.endsWith('_enroll'));
      if (reads || op.method === 'PATCH') expect(tool.annotations?.idempotentHint, op.name).toBe(true);
      // A repeated create makes another record; a repeated delete finds nothing to delete.
      if (op.kind === 'create' || op.kind === 'delete') expect(tool.annotations?.idempotentHint, op.name).toBe(false);
      if (op.paged) {
        expect(tool.inputSchema.properties).toMatchObject({ limit: { type: 'integer', minimum: 1, maximum: 100 }, cursor: { type: 'string' } });
        expect(tool.inputSchema.properties).not.toHaveProperty('offset');
        expect(tool.outputSchema).toMatchObject({ required: ['items', 'count', 'has_more'] });
      }
    }

    const schema = (name: string) => byName.get(name)!.inputSchema as any;
    // Types, required fields, the values the spec fixes as enums.
    expect(schema('contacts_create').required).toEqual(['name', 'email']);
    expect(schema('analytics').properties.period).toMatchObject({ type: 'string', enum: ['7d', '30d', '90d'] });
    expect(schema('search').properties.types).toMatchObject({ type: 'array', items: { enum: ['contacts', 'deals', 'accounts', 'tasks'] } });
    expect(schema('deals_create').properties.amount).toMatchObject({ type: 'number', minimum: 0 });
    expect(schema('tasks_complete').properties.ids).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
    expect(schema('deals_stage').required).toEqual(['ids', 'stage']);
    // Values a workspace defines are examples, never an enum: a real workspace may have others.
    expect(schema('contacts_list').properties.status).toMatchObject({ type: 'string', examples: ['lead', 'prospect', 'customer', 'churned'] });
    expect(schema('contacts_list').properties.status.enum).toBeUndefined();
    // Flags an agent has no use for are not offered: --all, --set, --yes, --file.
    for (const name of ['all', 'set', 'yes', 'file']) {
      for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain(name);
    }
    // Examples are the command's own, as arguments.
    expect(byName.get('contacts_list')!.description).toContain('Example: {"status":"lead","limit":10} (the ten newest leads)');
    expect(byName.get('sequences_enroll')!.description).toContain(`Example: {"id":"${DEMO.sequence}","contact_ids":["${DEMO.contact}"]}`);
  });

  it('calls every tool with valid arguments, each reaching its endpoint', async () => {
    const { server } = live;
    const state: Record<string, string> = {};
    const idOf = (result: CallResult) => result.structuredContent.id as string;
    // In an order that works: records are created, used, then deleted.
    const steps: Array<[string, () => Record<string, unknown>, ((result: CallResult) => void)?]> = [
      ['contacts_list', () => ({ limit: 3, status: 'lead' }), (r) => expect(r.structuredContent).toMatchObject({ count: 3, has_more: true, cursor: expect.any(String) })],
      ['contacts_get', () => ({ id: DEMO.contact }), (r) => expect(r.structuredContent.id).toBe(DEMO.contact)],
      ['contacts_create', () => ({ name: 'Agent Smith', email: `agent-${unique}@example.com`, company: 'Matrix' }), (r) => (state.contact = idOf(r))],
      ['contacts_update', () => ({ ids: [state.contact], title: 'Agent' }), (r) => expect(r.structuredContent.title).toBe('Agent')],
      ['contacts_notes_add', () => ({ id: state.contact, body: 'Met in the lobby' })],
      ['contacts_notes_list', () => ({ id: state.contact }), (r) => expect(r.structuredContent).toMatchObject({ count: 1, has_more: false })],
      ['contacts_tasks_add', () => ({ id: state.contact, title: 'Follow up', due_date: '+2d' }), (r) => expect(r.structuredContent.due_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)],
      ['contacts_enroll', () => ({ ids: [state.contact], sequence_id: DEMO.sequence })],
      ['accounts_list', () => ({})],
      ['accounts_get', () => ({ id: DEMO.account })],
      ['accounts_create', () => ({ name: `Agency ${unique}`, employees: 12 }), (r) => (state.account = idOf(r))],
      ['accounts_update', () => ({ ids: [state.account], industry: 'Software' })],
      ['accounts_delete', () => ({ ids: [state.account] }), (r) => expect(r.structuredContent).toMatchObject({ id: state.account, deleted: true })],
      ['deals_list', () => ({ stage: 'proposal' })],
      ['deals_get', () => ({ id: DEMO.deal })],
      ['deals_create', () => ({ name: 'Agent deal', amount: 5000, stage: 'qualification' }), (r) => (state.deal = idOf(r))],
      ['deals_update', () => ({ ids: [state.deal], amount: 6000 })],
      ['deals_stage', () => ({ ids: [state.deal], stage: 'Proposal' }), (r) => expect(r.structuredContent).toMatchObject({ id: state.deal, ok: true, result: 'moved', record: { stage: 'proposal' } })],
      ['deals_delete', () => ({ ids: [state.deal] })],
      ['sequences_list', () => ({ status: 'active' })],
      ['sequences_get', () => ({ id: DEMO.sequence })],
      ['sequences_create', () => ({ name: `Agent sequence ${unique}`, steps: [{ day: 0, channel: 'email', subject: 'Hello' }] }), (r) => (state.sequence = idOf(r))],
      ['sequences_enroll', () => ({ id: state.sequence, contact_ids: [state.contact] }), (r) => expect(r.structuredContent.items).toEqual([{ id: state.contact, ok: true, result: 'enrolled' }])],
      ['sequences_contacts', () => ({ id: state.sequence }), (r) => expect(r.structuredContent.items.map((c: any) => c.id)).toEqual([state.contact])],
      ['sequences_update', () => ({ ids: [state.sequence], status: 'paused' })],
      ['sequences_delete', () => ({ ids: [state.sequence] })],
      ['tasks_list', () => ({ overdue: true })],
      ['tasks_get', () => ({ id: DEMO.task })],
      ['tasks_create', () => ({ title: 'Agent task', priority: 'high', due_date: 'tomorrow' }), (r) => (state.task = idOf(r))],
      ['tasks_update', () => ({ ids: [state.task], priority: 'low' })],
      ['tasks_complete', () => ({ ids: [state.task] }), (r) => expect(r.structuredContent).toMatchObject({ count: 1, summary: '1 completed' })],
      ['tasks_delete', () => ({ ids: [state.task] })],
      ['pipeline_stages', () => ({}), (r) => expect(r.structuredContent.count).toBeGreaterThan(0)],
      ['pipeline_deals', () => ({}), (r) => expect(r.structuredContent.items[0]).toHaveProperty('total_value')],
      ['search', () => ({ q: 'globex', types: ['contacts', 'accounts'] }), (r) => expect(r.structuredContent.count).toBeGreaterThan(0)],
      ['analytics', () => ({ period: '7d' })],
      ['ai_suggestions', () => ({ limit: 1 }), (r) => (state.suggestion = r.structuredContent.items[0].id)],
      ['ai_accept', () => ({ ids: [state.suggestion] }), (r) => expect(r.structuredContent.items[0]).toMatchObject({ id: state.suggestion, ok: true })],
      ['ai_trigger', () => ({ contact_id: state.contact }), (r) => expect(r.structuredContent).toHaveProperty('score')],
      ['contacts_delete', () => ({ ids: [state.contact] })],
    ];
    expect(steps.map(([name]) => name).sort()).toEqual(ENDPOINT_COMMANDS.map((op) => op.name).sort());

    for (const [name, args, check] of steps) {
      server.log.length = 0;
      const result = await call(main.client, name, args());
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      // The text is the structured content as JSON, for clients that read only text.
      expect(JSON.parse(result.content[0]!.text!), name).toEqual(result.structuredContent);
      const op = ENDPOINT_COMMANDS.find((candidate) => candidate.name === name)!;
      expect(server.requests(endpointPattern(op.method, op.path)).length, `${name} → ${op.method} ${op.path}`).toBeGreaterThan(0);
      check?.(result);
    }
  });
});

describe('crm mcp: lists', () => {
  const ids = (result: CallResult): string[] => result.structuredContent.items.map((item: { id: string }) => item.id);

  it('pages with limit and a cursor, saying whether more exist and how to get them', async () => {
    const first = await call(main.client, 'contacts_list', { limit: 5 });
    expect(first.structuredContent).toMatchObject({ count: 5, has_more: true, cursor: expect.any(String) });
    const second = await call(main.client, 'contacts_list', { limit: 5, cursor: first.structuredContent.cursor });
    // The next five, in the list's order.
    const head = (await api(live.server, 'GET', '/contacts?limit=10')).data.contacts.map((contact: { id: string }) => contact.id);
    expect([...ids(first), ...ids(second)]).toEqual(head);
    // More than one service page: no request ever asks the service for more than 50.
    for (let index = 0; index < 5; index++) await api(live.server, 'POST', '/contacts', { name: `Paging ${index}`, email: `paging-${index}-${unique}@example.com` });
    const total = (await api(live.server, 'GET', '/contacts?limit=1')).data.total as number;
    const seen: string[] = [];
    let page = await call(main.client, 'contacts_list', { limit: 100 });
    expect(page.structuredContent.count).toBeGreaterThan(50); // up to 80,000 characters of records
    for (;;) {
      seen.push(...ids(page));
      if (!page.structuredContent.has_more) break;
      page = await call(main.client, 'contacts_list', { limit: 100, cursor: page.structuredContent.cursor });
    }
    // The last page says there is no more, and gives no cursor.
    expect(page.structuredContent).not.toHaveProperty('cursor');
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    for (const request of live.server.requests(/GET \/api\/v1\/contacts\?/)) expect(Number(new URL(request.url, 'http://x').searchParams.get('limit'))).toBeLessThanOrEqual(50);
  });

  it('an agent that completes each page of open tasks before asking for the next completes every one (with offsets it skipped 10 of 27)', async () => {
    for (let index = 0; index < 45; index++) await api(live.server, 'POST', '/tasks', { title: `Agent task ${index} ${unique}` });
    const open = async () => (await api(live.server, 'GET', '/tasks?status=open&limit=1')).data.total as number;
    const before = await open();
    expect(before).toBeGreaterThanOrEqual(45);
    let completed = 0;
    let pages = 0;
    let cursor: string | undefined;
    for (;;) {
      const page = await call(main.client, 'tasks_list', { status: 'open', limit: 10, ...(cursor ? { cursor } : {}) });
      expect(page.isError, textOf(page)).toBeFalsy();
      pages++;
      if (page.structuredContent.count > 0) {
        const done = await call(main.client, 'tasks_complete', { ids: ids(page) });
        expect(done.isError, textOf(done)).toBeFalsy();
        completed += page.structuredContent.count;
      }
      if (!page.structuredContent.has_more) break;
      // The agent follows the list: the cursor, never the head of the list again.
      expect(page.structuredContent.cursor).toEqual(expect.any(String));
      cursor = page.structuredContent.cursor;
    }
    expect(await open()).toBe(0);
    expect(completed).toBe(before);
    expect(pages).toBe(Math.ceil(before / 10));
  });

  it('refuses a cursor of another call, and one that is not a cursor, sending nothing', async () => {
    const leads = await call(main.client, 'contacts_list', { status: 'lead', limit: 2 });
    live.server.log.length = 0;
    const other = await call(main.client, 'contacts_list', { status: 'customer', limit: 2, cursor: leads.structuredContent.cursor });
    expect(other).toMatchObject({ isError: true, content: [{ text: 'this cursor belongs to another call: give it with the same tool and arguments (other than limit, fields and full) as the call that returned it' }] });
    const elsewhere = await call(main.client, 'deals_list', { cursor: leads.structuredContent.cursor });
    expect(elsewhere.isError).toBe(true);
    for (const cursor of ['not-a-cursor', '', Buffer.from('{"v":1}').toString('base64url'), Buffer.from(JSON.stringify({ v: 1, s: 'x', o: -1, t: [], a: ['k'] })).toString('base64url')]) {
      const result = await call(main.client, 'contacts_list', { status: 'lead', cursor });
      expect(result, cursor).toMatchObject({ isError: true, content: [{ text: 'invalid cursor: give the cursor of the previous call as it was returned' }] });
    }
    // A larger limit, other fields: the same call.
    expect((await call(main.client, 'contacts_list', { status: 'lead', limit: 5, fields: ['email'], cursor: leads.structuredContent.cursor })).isError).toBeFalsy();
    expect(live.server.requests(/cursor|status=customer|\/deals/)).toEqual([]);
  });

  it('never sends one giant response: long records are left for the next call', async () => {
    const contact = (await api(live.server, 'POST', '/contacts', { name: 'Long Notes', email: `long-${unique}@example.com` })).data;
    for (let index = 0; index < 12; index++) await api(live.server, 'POST', `/contacts/${contact.id}/notes`, { body: `${index} ${'x'.repeat(9_990)}` });
    const first = await call(main.client, 'contacts_notes_list', { id: contact.id, limit: 20 });
    const { count, has_more, cursor } = first.structuredContent;
    expect(count).toBeLessThan(12);
    expect(has_more).toBe(true);
    expect(first.content[0]!.text!.length).toBeLessThan(90_000);
    const rest = await call(main.client, 'contacts_notes_list', { id: contact.id, limit: 20, cursor });
    expect(count + rest.structuredContent.count).toBe(12);
    expect(new Set([...ids(first), ...ids(rest)]).size).toBe(12);
    expect(rest.structuredContent.has_more).toBe(false);
  });
});

describe('crm mcp: failures', () => {
  it('refuses bad arguments as tool errors, by the schema or the command line checks, sending nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['contacts_list', { limit: 101 }, /limit must be <= 100/],
      ['contacts_list', { limit: 'ten' }, /limit must be integer/],
      ['contacts_create', { name: 'No Email' }, /missing required argument "email"/],
      ['contacts_create', { name: 'Typo', email: 'typo@example.com', nmae: 'x' }, /unknown argument "nmae".*contacts_create takes: name, email/],
      ['contacts_create', { name: 'Bad Email', email: 'not-an-email' }, /email: invalid email "not-an-email"/],
      ['analytics', { period: '1y' }, /period must be one of: 7d, 30d, 90d/],
      ['search', { q: 'x', types: ['emails'] }, /types\.0 must be one of: contacts, deals, accounts, tasks/],
      ['search', { q: '   ' }, /the search query is empty/],
      ['tasks_create', { title: 'When?', due_date: 'someday' }, /invalid due_date "someday"/],
      ['tasks_complete', { ids: [] }, /ids must NOT have fewer than 1 items/],
      ['contacts_update', { ids: [DEMO.contact] }, /nothing to update/],
      ['contacts_get', { id: '..' }, /invalid id/],
      ['contacts_update', { ids: [DEMO.contact], data: JSON.parse('{"__proto__": {"polluted": true}}') }, /__proto__|nothing to update/],
      ['contacts_update', { ids: [DEMO.contact], data: 'name=x' }, /data must be object/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(main.client, name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(message);
      expect(textOf(result)).not.toMatch(/\n\s+at /);
    }
    expect(live.server.log).toEqual([]);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('an unknown tool is a protocol error', async () => {
    await expect(main.client.callTool({ name: 'contacts_destroy_all', arguments: {} })).rejects.toThrow(/unknown tool "contacts_destroy_all"/);
  });

  it("a service error is a tool error with the service's message: never the key, never a stack", async () => {
    const missing = await call(main.client, 'contacts_get', { id: 'con_missing' });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'contact con_missing not found' }] });

    const { server } = live;
    server.fault({ match: /GET \/api\/v1\/accounts/, status: 500, body: JSON.stringify({ data: null, error: `database exploded near ${server.apiKey}` }) });
    const broken = await call(main.client, 'accounts_list');
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(/^database exploded near \*+/);
    expect(textOf(broken)).not.toContain(server.apiKey);
    expect(broken.structuredContent).toBeUndefined();
  });

  it('a 429 says when to call again', async () => {
    const { server } = live;
    server.fault({ match: /POST \/api\/v1\/ai\/trigger/, status: 429, headers: { 'retry-after': '120' }, body: JSON.stringify({ data: null, error: 'Too many requests. Try again in a minute.' }) });
    const later = await call(main.client, 'ai_trigger', { contact_id: DEMO.contact });
    expect(later.isError).toBe(true);
    expect(textOf(later)).toMatch(/^Too many requests\. Try again in a minute\. \(retry after 120s, at \d{4}-/);

    // Without Retry-After crm retries with backoff; the service's window is a minute.
    server.fault({ match: /GET \/api\/v1\/analytics/, status: 429, body: JSON.stringify({ data: null, error: 'Slow down' }), times: 4 });
    const slow = await call(main.client, 'analytics');
    expect(textOf(slow)).toBe('Slow down (rate limited: wait about a minute, then call again)');
  });

  it('a bulk call that fails in part reports each item and is a tool error', async () => {
    const task = (await api(live.server, 'POST', '/tasks', { title: `Partial ${unique}` })).data;
    const result = await call(main.client, 'tasks_complete', { ids: [task.id, 'task_missing'] });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('1 of 2 failed: task_missing (the report lists each task; completing one again is harmless)');
    expect(result.structuredContent.items).toEqual([
      expect.objectContaining({ id: task.id, ok: true, result: 'completed' }),
      expect.objectContaining({ id: 'task_missing', ok: false, result: 'not_found' }),
    ]);
  });
});

describe('crm mcp: cancellation', () => {
  it('a call its client cancels stops: the requests under way are abandoned and no other is sent', async () => {
    const tasks = await Promise.all(Array.from({ length: 12 }, async (_, n) => (await api(live.server, 'POST', '/tasks', { title: `Cancelled ${n} ${unique}` })).data.id as string));
    live.server.log.length = 0;
    // The first four (a bulk call sends 4 at a time) are held; the call is cancelled while they are.
    live.server.fault({ match: /^POST \/api\/v1\/tasks\/[^/]+\/complete/, delayMs: 1500, times: 4 });
    const controller = new AbortController();
    const pending = main.client.callTool({ name: 'tasks_complete', arguments: { ids: tasks } }, undefined, { signal: controller.signal });
    const deadline = Date.now() + 10_000;
    while (live.server.requests(/complete/).length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const underWay = live.server.requests(/complete/).length;
    expect(underWay).toBe(4);
    controller.abort();
    await expect(pending).rejects.toThrow();
    // Past the delayed answers: nothing more was sent for the other ids.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(live.server.requests(/complete/)).toHaveLength(underWay);
    expect(underWay).toBeLessThan(tasks.length);
    // The server goes on serving.
    expect((await call(main.client, 'deals_get', { id: DEMO.deal })).structuredContent.id).toBe(DEMO.deal);
  }, 30_000);
});

describe('crm mcp --read-only --toolsets', () => {
  let limited: Connection;
  beforeAll(async () => {
    limited = await connect(['--read-only', '--toolsets', 'contacts,deals', '--debug'], live.env);
  });
  afterAll(() => limited.client.close());

  it('serves only the reading tools of those groups', async () => {
    const { tools } = await limited.client.listTools();
    const expected = ENDPOINT_COMMANDS.filter((op) => op.method === 'GET' && (op.group === 'contacts' || op.group === 'deals')).map((op) => op.name);
    expect(tools.map((tool) => tool.name).sort()).toEqual(expected.sort());
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    await expect(limited.client.callTool({ name: 'contacts_create', arguments: { name: 'X', email: 'x@example.com' } })).rejects.toThrow(
      /^MCP error -32602: tool "contacts_create" is not served: crm mcp was started with --read-only, --toolsets, --tools or --exclude-tools that leave it out$/,
    );
    await expect(limited.client.callTool({ name: 'accounts_list', arguments: {} })).rejects.toThrow(/not served/);
    expect(live.server.log).toEqual([]);
  });

  it('keeps stdout for the protocol: --debug traces go to stderr', async () => {
    const result = await call(limited.client, 'deals_get', { id: DEMO.deal });
    expect(result.structuredContent.id).toBe(DEMO.deal);
    expect(limited.stderr()).toMatch(/crm mcp: \d+ tools \(contacts, deals\)/);
    expect(limited.stderr()).toContain(`> GET ${live.server.url}/deals/${DEMO.deal}`);
    expect(limited.stderr()).not.toContain(live.server.apiKey);
  });
});

/** `crm mcp` as a process spoken to in raw lines: what it answered, parsed, and how it ended. */
function rawServer(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CRM_BIN, 'mcp', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers: any[] = [];
  let pending = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      answers.push(JSON.parse(pending.slice(0, end)));
      pending = pending.slice(end + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let done = false;
  void exited.then(() => (done = true));
  return { child, answers, exited, hasExited: () => done, stderr: () => stderr, send: (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`) };
}

describe('crm mcp: the process', () => {
  const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } } })}\n`;
  const initializeMessage = JSON.parse(initialize);

  it('answers a request line over the 10 MiB a line may hold with an error naming its id, and serves the next one', async () => {
    const server = rawServer([], live.env);
    server.send(initializeMessage);
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'contacts_notes_add', arguments: { id: DEMO.contact, body: 'x'.repeat(11 * 1024 * 1024) } } });
    server.child.stdin.write(`${huge}\n`);
    server.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'contacts_get', arguments: { id: DEMO.contact, fields: ['id'] } } });
    await until(() => server.answers.length >= 3, 'the answers');
    expect(server.answers[1]).toEqual({ jsonrpc: '2.0', id: 'big', error: { code: -32600, message: 'Invalid request: the message is longer than 10485760 bytes and was not read' } });
    expect(server.answers[2]).toMatchObject({ id: 3, result: { structuredContent: { id: DEMO.contact } } });
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(live.server.requests(/notes/)).toEqual([]);
  });

  for (const [how, end] of [
    ['SIGTERM', (server: ReturnType<typeof rawServer>) => server.child.kill('SIGTERM')],
    ['stdin closed', (server: ReturnType<typeof rawServer>) => server.child.stdin.end()],
  ] as const) {
    it(`${how} while a call hangs: the process ends at once (exit 0), abandoning the call, not after its retries`, async () => {
      // The service holds its answer far longer than the process may take to end.
      live.server.fault({ match: /GET \/api\/v1\/deals\//, delayMs: 60_000 });
      const server = rawServer(['--timeout', '30'], live.env);
      server.send(initializeMessage);
      server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deals_get', arguments: { id: DEMO.deal } } });
      await until(() => live.server.requests(/GET \/api\/v1\/deals\//).length === 1, 'the request held');
      let answered = false;
      void live.server.settled().then(() => (answered = true));
      end(server);
      expect(await server.exited).toBe(0);
      // It ended while the service still held its answer.
      expect(answered).toBe(false);
      expect(live.server.requests(/GET \/api\/v1\/deals\//)).toHaveLength(1);
    });
  }

  it('answers on stdout with protocol messages only, and exits 0 when the client closes stdin', async () => {
    const server = rawServer([], live.env);
    server.send(initializeMessage);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'contacts_get', arguments: { id: DEMO.contact } } });
    await until(() => server.answers.length >= 2, 'the answers');
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(server.answers).toHaveLength(2);
    expect(server.answers[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'crm' }, capabilities: { tools: {} } } });
    expect(server.answers[1]).toMatchObject({ id: 2, result: { structuredContent: { id: DEMO.contact } } });
  });

  it('works with zero set-up on the embedded sandbox', async () => {
    const embedded = await connect([], freshHome());
    try {
      const result = await call(embedded.client, 'contacts_get', { id: DEMO.contact });
      expect(result.structuredContent.id).toBe(DEMO.contact);
      expect(embedded.stderr()).toContain('for the local sandbox workspace');
    } finally {
      await embedded.client.close();
    }
  });

  it('checks its flags and the workspace before serving', async () => {
    const bad = await crm(['mcp', '--toolsets', 'contacts,bogus'], { env: live.env });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain('crm: invalid --toolsets "bogus" (expected one of: contacts, accounts, deals, sequences, tasks, pipeline, search, analytics, ai)');
    const noKey = await crm(['mcp'], { env: { ...freshHome(), CRM_BASE_URL: 'https://crm.example.com' } });
    expect(noKey).toMatchObject({ code: 3, stdout: '' });
    expect(noKey.stderr).toContain('crm: no API key configured');
    expect((await crm(['mcp', '--dry-run'], { env: live.env })).code).toBe(2);
    const help = await crm(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--read-only');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`--toolsets <list> only the tools of these groups, comma-separated (env CRM_TOOLSETS): ${GROUP_NAMES.join(', ')}`);
    expect(help.stdout).toContain('--exclude-tools');
  });

  it('is the only command that loads the SDK', () => {
    const sdk = chunksWith('Server does not support logging');
    expect(sdk).toHaveLength(1);
    // Every file a command loads before its action runs: the static imports of the entry and the app.
    const loaded = loadedUpFront(['crm.js', 'app.js']);
    expect(loaded.size).toBeGreaterThan(2);
    expect([...loaded]).not.toContain(sdk[0]);
  });
});
