// `crm completion SHELL` and the completions/ files it generates, and `crm __complete`, the fast path
// the scripts ask for profiles, stages and sequences (in-process; test/e2e/completion.test.ts drives
// the real shells).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/complete.js';
import { completionTree, allNodes } from '../../src/commands/completion/tree.js';
import { COMPLETION_TTL_MS } from '../../src/config/cache.js';
import { TREE } from '../../src/commands/index.js';
import { commandOptions } from '../../src/registry/options.js';
import { flagName } from '../../src/registry/types.js';
import { BASE_URL, homeEnv, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';
import { LOCAL_COMMANDS, ENDPOINT_COMMANDS } from '../helpers/tree.js';

const ws = useWorkspace();
const FILES = { bash: 'crm.bash', zsh: '_crm', fish: 'crm.fish' } as const;

describe('crm completion SHELL', () => {
  it.each(Object.entries(FILES))('prints the checked-in completions for %s (run `npm run completions` after changing commands)', async (shell, file) => {
    const result = await run(['completion', shell]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(readFileSync(new URL(`../../completions/${file}`, import.meta.url), 'utf8'));
  });

  it('prints the script itself whatever CRM_OUTPUT or the profile ask for', async () => {
    const plain = await run(['completion', 'fish']);
    const env = { ...homeEnv(ws.home), CRM_OUTPUT: 'json' };
    expect((await run(['completion', 'fish'], { env })).stdout).toBe(plain.stdout);
    expect(plain.stdout).toContain('\n');
  });

  it('refuses another shell with exit 2', async () => {
    const result = await run(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('powershell');
  });

  it('knows every command of the registry and the local commands, with its aliases and flags', () => {
    const nodes = allNodes(completionTree(TREE).root);
    const byPath = new Map(nodes.map((node) => [node.path.join(' '), node]));
    for (const spec of [...ENDPOINT_COMMANDS, ...LOCAL_COMMANDS]) {
      const node = byPath.get(spec.command.join(' '));
      expect(node, spec.command.join(' ')).toBeDefined();
      expect(node!.aliases).toEqual(spec.aliases ?? []);
      const flags = 'method' in spec ? commandOptions(spec) : spec.options;
      expect(node!.flags.map((flag) => flag.long)).toEqual([...flags.map(flagName), 'help']);
    }
    const deals = byPath.get('deals list')!;
    expect(deals.flags.find((flag) => flag.long === 'stage')?.value?.values).toEqual({ kind: 'dynamic', source: 'stages' });
    expect(byPath.get('search')!.flags.find((flag) => flag.long === 'types')?.value?.values).toEqual({ kind: 'list', words: ['contacts', 'deals', 'accounts', 'tasks'] });
    expect(byPath.get('sequences enroll')!.flags.find((flag) => flag.long === 'file')?.value?.values).toEqual({ kind: 'file' });
  });
});

/** Runs the fast path against the test workspace; returns its exit code and lines. */
async function ask(source: string, options: { words?: string[]; env?: NodeJS.ProcessEnv; workspace?: Workspace } = {}) {
  let stdout = '';
  const env = options.env ?? { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey };
  const code = await complete([source, ...(options.words ?? [])], { env, stdout: { write: (text: string) => (stdout += text) }, transport: (options.workspace ?? ws).transport });
  return { code, lines: stdout === '' ? [] : stdout.trimEnd().split('\n') };
}

describe('crm __complete', () => {
  it('lists the stored profiles, and the sandbox, without any request', async () => {
    const env = homeEnv(ws.home);
    const dir = join(ws.home, '.config', 'crm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { staging: { base_url: 'https://staging.example.com/api/v1', api_key: 'k' }, 'bad name': {} } }));
    expect((await ask('profiles', { env })).lines).toEqual(['sandbox\tthe local sandbox workspace', 'staging\thttps://staging.example.com/api/v1']);
    expect(ws.requests()).toEqual([]);
  });

  it('fetches the stages once, then answers from the cache until it is stale', async () => {
    const env: NodeJS.ProcessEnv = { ...homeEnv(join(ws.home, 'stages')), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey };
    const first = await ask('stages', { env });
    expect(first.code).toBe(0);
    expect(first.lines).toContain('closed_won\tClosed Won');
    expect(ws.requests(/GET \/api\/v1\/pipeline\/stages/)).toHaveLength(1);
    expect(await ask('stages', { env })).toEqual(first);
    expect(ws.requests()).toHaveLength(1);
    // Five minutes on, the cache is stale and the workspace is asked again.
    const path = join(env.XDG_CACHE_HOME!, 'crm', 'completion.json');
    const cache = JSON.parse(readFileSync(path, 'utf8'));
    for (const entry of Object.values<{ at: number }>(cache)) entry.at -= COMPLETION_TTL_MS + 1;
    writeFileSync(path, JSON.stringify(cache));
    expect(await ask('stages', { env })).toEqual(first);
    expect(ws.requests()).toHaveLength(2);
  });

  it('keeps the values of each profile apart: two workspaces of one service share its base URL (the key tells them apart)', async () => {
    const home = join(ws.home, 'two-profiles');
    mkdirSync(join(home, '.config', 'crm'), { recursive: true });
    const profiles = { production: { base_url: BASE_URL, api_key: ws.apiKey }, staging: { base_url: BASE_URL, api_key: ws.apiKey } };
    writeFileSync(join(home, '.config', 'crm', 'config.json'), JSON.stringify({ active_profile: 'production', profiles }));
    const env = homeEnv(home);
    const production = await ask('stages', { env, words: ['deals', 'stage', 'x', '--profile', 'production'] });
    expect(production.lines).toContain('closed_won\tClosed Won');
    // Staging's pipeline is its own: asked of the workspace, not read from production's cache.
    const stages = [{ id: 'trial', name: 'Trial' }];
    ws.fault({ match: /pipeline\/stages/, status: 200, body: JSON.stringify({ data: { stages, total: 1 }, error: null }) });
    expect((await ask('stages', { env, words: ['deals', 'stage', 'x', '--profile', 'staging'] })).lines).toEqual(['trial\tTrial']);
    expect(ws.requests(/pipeline\/stages/)).toHaveLength(2);
    // Each answers from its own cache then.
    expect(await ask('stages', { env, words: ['--profile=production'] })).toEqual(production);
    expect(ws.requests()).toHaveLength(2);
  });

  it('lists the active sequences only, for the workspace the words name', async () => {
    const { lines } = await ask('sequences', { words: ['contacts', 'enroll', 'x', '--sequence'] });
    expect(lines.length).toBeGreaterThan(0);
    expect(ws.requests()[0]!.url).toBe('/api/v1/sequences?status=active&limit=50&offset=0');
    // An unknown --profile among the words: nothing to offer, nothing asked.
    ws.log.length = 0;
    expect(await ask('sequences', { words: ['--profile', 'nope'], env: homeEnv(join(ws.home, 'other')) })).toEqual({ code: 1, lines: [] });
    expect(ws.requests()).toEqual([]);
  });

  it('asks once, without retries, and offers nothing when the workspace fails', async () => {
    const env = { ...homeEnv(join(ws.home, 'failing')), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey };
    ws.fault({ match: /pipeline\/stages/, status: 503 }); // a retry would succeed
    expect(await ask('stages', { env })).toEqual({ code: 1, lines: [] });
    expect(ws.requests()).toHaveLength(1);
  });

  it('offers only plain words: a stage id that is shell syntax, or would be read as a flag, never reaches the command line', async () => {
    const env = { ...homeEnv(join(ws.home, 'hostile')), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey };
    const stages = [
      { id: 'won', name: 'Won\u001b[31m\ttab' },
      { id: '$(touch /tmp/pwned)', name: 'evil' },
      { id: 'a b', name: 'space' },
      { id: '--insecure', name: 'a flag of crm' },
    ];
    ws.fault({ match: /pipeline\/stages/, status: 200, body: JSON.stringify({ data: { stages, total: 1 }, error: null }) });
    const { lines } = await ask('stages', { env });
    expect(lines).toEqual(['won\tWon\uFFFD[31m\uFFFDtab']);
  });

  it('exits 2 for an unknown source', async () => {
    expect(await ask('nonsense')).toEqual({ code: 2, lines: [] });
  });
});
