// Every command of the endpoint registry, run in-process in json, table and tsv modes against the sandbox.
// A command added to the registry without a row here fails the first test.
import { beforeAll, describe, expect, it } from 'vitest';
import { run, useWorkspace } from '../helpers/inprocess.js';
import { ENDPOINT_COMMANDS } from '../helpers/tree.js';

const ws = useWorkspace();

interface Fixtures {
  contact: string;
  account: string;
  deal: string;
  sequence: string;
  task: string;
  unique: () => string;
}

/** The arguments of each command; records that a command consumes are made fresh each time. */
const ARGS: Record<string, (f: Fixtures) => Promise<string[]> | string[]> = {
  'contacts list': () => ['--limit', '3'],
  'contacts get': (f) => [f.contact],
  'contacts create': (f) => ['--name', 'Mode Person', '--email', `mode-${f.unique()}@example.com`],
  'contacts update': (f) => [f.contact, '--company', `Co ${f.unique()}`],
  'contacts delete': async (f) => [(ws.api('POST', '/contacts', { name: 'Del', email: `del-${f.unique()}@example.com` })).data.id, '--yes'],
  'contacts notes list': (f) => [f.contact],
  'contacts notes add': (f) => [f.contact, '--body', 'A note'],
  'contacts tasks add': (f) => [f.contact, '--title', 'A task', '--due', 'tomorrow'],
  'contacts enroll': async (f) => [(ws.api('POST', '/contacts', { name: 'Enr', email: `enr-${f.unique()}@example.com` })).data.id, '--sequence', f.sequence],
  'accounts list': () => ['--limit', '3'],
  'accounts get': (f) => [f.account],
  'accounts create': () => ['--name', 'Mode Account'],
  'accounts update': (f) => [f.account, '--industry', 'Testing'],
  'accounts delete': async () => [(ws.api('POST', '/accounts', { name: 'Del' })).data.id, '--yes'],
  'deals list': () => ['--limit', '3'],
  'deals get': (f) => [f.deal],
  'deals create': () => ['--name', 'Mode Deal', '--amount', '100'],
  'deals update': (f) => [f.deal, '--amount', '250'],
  'deals delete': async () => [(ws.api('POST', '/deals', { name: 'Del' })).data.id, '--yes'],
  'deals stage': async () => [(ws.api('POST', '/deals', { name: 'Stage me' })).data.id, 'proposal'],
  'sequences list': () => ['--limit', '3'],
  'sequences get': (f) => [f.sequence],
  'sequences create': () => ['--name', 'Mode Sequence'],
  'sequences update': (f) => [f.sequence, '--description', 'Updated'],
  'sequences delete': async () => [(ws.api('POST', '/sequences', { name: 'Del' })).data.id, '--yes'],
  'sequences enroll': async (f) => [f.sequence, (ws.api('POST', '/contacts', { name: 'Bulk', email: `bulk-${f.unique()}@example.com` })).data.id],
  'sequences contacts': (f) => [f.sequence],
  'tasks list': () => ['--limit', '3'],
  'tasks get': (f) => [f.task],
  'tasks create': () => ['--title', 'Mode Task'],
  'tasks update': (f) => [f.task, '--priority', 'high'],
  'tasks delete': async () => [(ws.api('POST', '/tasks', { title: 'Del' })).data.id, '--yes'],
  'tasks complete': async () => [(ws.api('POST', '/tasks', { title: 'Complete me' })).data.id],
  'pipeline stages': () => [],
  'pipeline deals': () => [],
  search: () => ['globex'],
  analytics: () => ['--period', '7d'],
  'ai suggestions': () => ['--limit', '3'],
  'ai accept': async () => [(ws.api('GET', '/ai/suggestions?limit=1')).data.suggestions[0].id],
  'ai trigger': (f) => [f.contact],
};

let fixtures: Fixtures;
beforeAll(async () => {
  let counter = 0;
  const made = async (path: string, body: object) => (ws.api('POST', path, body)).data.id as string;
  fixtures = {
    contact: await made('/contacts', { name: 'Fixture Person', email: 'fixture@example.com' }),
    account: await made('/accounts', { name: 'Fixture Account' }),
    deal: await made('/deals', { name: 'Fixture Deal' }),
    sequence: await made('/sequences', { name: 'Fixture Sequence' }),
    task: await made('/tasks', { title: 'Fixture Task' }),
    unique: () => `${Date.now()}-${counter++}`,
  };
  ws.api('POST', `/contacts/${fixtures.contact}/notes`, { body: 'Fixture note' });
  ws.api('POST', `/sequences/${fixtures.sequence}/enroll`, { contact_ids: [fixtures.contact] });
});

describe('the matrix', () => {
  it('has a row for every command of the registry', () => {
    expect(Object.keys(ARGS).sort()).toEqual(ENDPOINT_COMMANDS.map((op) => op.command.join(' ')).sort());
  });
});

describe.each(ENDPOINT_COMMANDS.map((op) => [op.command.join(' '), op] as const))('crm %s', (name, op) => {
  it('json: exit 0 and JSON on stdout', async () => {
    const result = await run([...op.command, ...(await ARGS[name]!(fixtures)), '--json'], { ws });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(() => JSON.parse(result.stdout)).not.toThrow();
  });

  it('table: exit 0, headers or field names on stdout', async () => {
    const result = await run([...op.command, ...(await ARGS[name]!(fixtures)), '-o', 'table'], { ws });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    if (op.kind === 'delete') expect(result.stdout).toBe('');
    else expect(result.stdout).toMatch(/^(\s*[A-Z_]+\s{2,}[A-Z_]+|id\s{2,}|Analytics for|Contact \S+ scored|CONTACTS \(\d+\))/);
  });

  it('tsv in a pipe: exit 0, tab-separated lines', async () => {
    const result = await run([...op.command, ...(await ARGS[name]!(fixtures))], { ws });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    if (op.kind === 'delete') expect(result.stdout).toBe('');
    else for (const line of result.stdout.trimEnd().split('\n')) expect(line).toContain('\t');
  });
});
