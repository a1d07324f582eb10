// Scripts and gh habits (issue 20, items 14, 16-19, 21, 22): combined short flags before the
// command word, JSON errors however JSON was asked for, a dry run of a stage move that refuses and
// plans what the run does, a move to the stage a deal is in, fields the spec does not show, the
// service's own words on a 404, and a password in a base URL that is never shown.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanArgv } from '../../src/main.js';
import { DEMO } from '../../src/registry/demo.js';
import { BASE_URL, homeEnv, json, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, ...extra });

describe('combined short flags before the command word (item 14)', () => {
  it.each([[['-qo', 'json']], [['-qojson']], [['-q', '--output=json']]])('crm %j contacts list --limit 2 prints two ids', async (flags) => {
    const result = await run([...flags, 'contacts', 'list', '--limit', '2'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('argv is read as commander reads it: values of global options are not command words', () => {
    expect(scanArgv(['-qo', 'json', 'contacts', 'list', '--limit', '2'])).toEqual({ words: ['contacts', 'list', '2'], values: new Map([['output', 'json']]) });
    expect(scanArgv(['-qojson', '--base-url=https://x.example', 'deals', 'list']).values).toEqual(new Map([['output', 'json'], ['base_url', 'https://x.example']]));
    expect(scanArgv(['--profile', 'work', '-q', 'search', 'globex']).words).toEqual(['search', 'globex']);
  });
});

describe('errors as --json prints them, whichever way JSON was asked for (item 16)', () => {
  it.each([
    ['a 404', ['contacts', 'get', 'con_nope']],
    ['a usage error', ['contacts', 'list', '--bogus']],
    ['a bad value', ['contacts', 'list', '--limit', '0']],
  ])('%s: -o json and CRM_OUTPUT=json print what --json prints', async (_, argv) => {
    const asJson = await run([...argv, '--json'], { ws });
    expect(asJson.stderr).toMatch(/\n\{"error":\{"message":/);
    for (const other of [await run(['-o', 'json', ...argv], { ws }), await run(argv, { ws, env: env({ CRM_OUTPUT: 'json' }) })]) {
      expect(other.code).toBe(asJson.code);
      expect(other.stderr).toBe(asJson.stderr);
    }
  });

  it('the profile\'s output setting (crm config set output json) too: a usage error of the command line prints the error object, as a bad value does', async () => {
    const home = homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-')));
    expect((await run(['config', 'set', 'output', 'json'], { env: home })).code).toBe(0);
    for (const argv of [['contacts', 'list', '--bogus'], ['contacts', 'lst'], ['contacts', 'list', '--limit', '0']]) {
      const result = await run(argv, { env: home });
      expect(result.code).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(/\n\{"error":\{"message":.*"exit_code":2(,"hint":"[^\n]*")?\}\}\n$/);
    }
    // A flag that asks for another format wins over the profile's, for these errors as for the others.
    expect((await run(['contacts', 'list', '--bogus', '-o', 'tsv'], { env: home })).stderr).toBe("crm: unknown option '--bogus'\nhint: `crm contacts list --help` lists its flags, `crm help flags` the global ones\n");
  });

  it('a format that is not JSON prints no JSON error object', async () => {
    const result = await run(['contacts', 'get', 'con_nope', '-o', 'tsv'], { ws });
    expect(result.stderr).toBe('crm: contact con_nope not found\n');
  });
});

describe('deals stage (items 17, 18)', () => {
  it('--dry-run refuses an unknown stage as the run does, after the same look-up', async () => {
    const dry = await run(['deals', 'stage', DEMO.deal, 'bogus', '--dry-run'], { ws });
    const dryLog = ws.requests().map((request) => `${request.method} ${request.url}`);
    ws.log.length = 0;
    const real = await run(['deals', 'stage', DEMO.deal, 'bogus'], { ws });
    expect(dry.code).toBe(2);
    expect(dry.stderr).toBe(real.stderr);
    expect(dry.stderr).toMatch(/^crm: unknown stage "bogus" \(valid stages: prospecting, /);
    expect(dryLog).toEqual(['GET /api/v1/pipeline/stages?limit=50&offset=0']);
  });

  it('--dry-run plans the look-up and the move with the stage id the run sends, in the same order, and moves nothing', async () => {
    const deal = ws.api('POST', '/deals', { name: 'Dry stage' }).data;
    const dry = await run(['deals', 'stage', deal.id, 'Closed Won', '--dry-run', '--json'], { ws });
    expect(dry.code).toBe(0);
    expect(json(dry).map((request: { method: string; url: string; body: unknown }) => [request.method, request.url, request.body])).toEqual([
      ['GET', `${BASE_URL}/pipeline/stages?limit=50&offset=0`, null],
      ['POST', `${BASE_URL}/deals/${deal.id}/stage`, { stage: 'closed_won' }],
    ]);
    expect(ws.requests().map((request) => request.method)).toEqual(['GET']);
    expect(ws.api('GET', `/deals/${deal.id}`).data.stage).toBe('prospecting');
    ws.log.length = 0;
    expect((await run(['deals', 'stage', deal.id, 'Closed Won'], { ws })).code).toBe(0);
    expect(ws.requests().map((request) => [request.method, request.url, request.body])).toEqual([
      ['GET', '/api/v1/pipeline/stages?limit=50&offset=0', ''],
      ['POST', `/api/v1/deals/${deal.id}/stage`, '{"stage":"closed_won"}'],
    ]);
  });

  it('a move to the stage the deal is in is a no-op: said on stderr, exit 0, no activity logged', async () => {
    const deal = ws.api('POST', '/deals', { name: 'Stays put', stage: 'proposal' }).data;
    const activities = ws.api('GET', `/deals/${deal.id}`).data.activities.length;
    const result = await run(['deals', 'stage', deal.id, 'proposal', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Deal ${deal.id} is already in Proposal: nothing moved.\n`);
    expect(json(result)).toMatchObject({ id: deal.id, stage: 'proposal' });
    expect(ws.api('GET', `/deals/${deal.id}`).data.activities).toHaveLength(activities);
  });

  it('another refusal of the move stands (the deal is not in that stage)', async () => {
    const deal = ws.api('POST', '/deals', { name: 'Refused', stage: 'proposal' }).data;
    ws.fault({ match: /^POST \/api\/v1\/deals\/.*\/stage$/, status: 409, body: JSON.stringify({ data: null, error: 'Deal is locked by an approval' }) });
    const result = await run(['deals', 'stage', deal.id, 'negotiation'], { ws });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('crm: Deal is locked by an approval\n');
  });
});

describe('fields the spec does not show (item 19)', () => {
  it('--set custom.source=... is kept by the workspace and answered back', async () => {
    const result = await run(['contacts', 'create', '--name', 'Custom Field', '--email', 'custom-field@example.com', '--set', 'custom.source=partner', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).custom).toEqual({ source: 'partner' });
    expect(ws.api('GET', `/contacts/${json(result).id}`).data.custom).toEqual({ source: 'partner' });
  });

  it("the README's example works as it is shown (without --dry-run too)", async () => {
    const result = await run(['deals', 'create', '--name', 'Renewal', '--set', 'amount=12000', '--set', 'custom.source="partner"', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ name: 'Renewal', amount: 12000, custom: { source: 'partner' } });
  });
});

describe('a 404 in the service\'s own words (item 21)', () => {
  it.each([
    [{ code: 'contact_merged', message: 'Contact con_gone was merged into con_kept' }, 'crm: Contact con_gone was merged into con_kept\n'],
    [{ code: 'not_found', message: 'No such record in this workspace' }, 'crm: No such record in this workspace (contact con_gone)\n'],
    [{ code: 'not_found', message: 'Contact not found' }, 'crm: contact con_gone not found\n'],
    ['Contact not found', 'crm: contact con_gone not found\n'],
  ])('error %j', async (error, stderr) => {
    ws.fault({ match: /^GET/, status: 404, body: JSON.stringify({ data: null, error }) });
    const result = await run(['contacts', 'get', 'con_gone'], { ws });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(stderr);
  });
});

describe('a password in a base URL (item 22)', () => {
  it.each([
    ['CRM_BASE_URL', ['contacts', 'list', '--json'], { CRM_BASE_URL: 'https://bob:s3cret-pw@crm.example.com' }],
    ['--base-url', ['--base-url', 'https://bob:s3cret-pw@crm.example.com', 'contacts', 'list', '--json'], {}],
    ['a URL that does not parse', ['--base-url', 'https://bob:s3cret-pw@crm example.com', 'contacts', 'list', '--json'], {}],
    ['auth login', ['auth', 'login', '--base-url', 'https://bob:s3cret-pw@crm.example.com', '--with-key', '--json'], {}],
    ['a token as the user', ['--base-url', 'https://s3cret-pw@crm example.com', 'contacts', 'list', '--json'], {}],
  ])('is masked in the message and the JSON error (%s)', async (_, argv, extra) => {
    const result = await run(argv, { env: { ...homeEnv(ws.home), ...extra }, stdin: 'sk_live_abcdefghijklmnop' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('****@crm');
    expect(result.stderr).not.toContain('s3cret-pw');
  });
});
