// Which workspace a command reaches, seen from a real process over the network: the precedence
// --profile > CRM_PROFILE > active profile, and CRM_API_KEY over the stored key.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crm, freshHome } from '../helpers/crm.js';
import { useTestServer } from '../helpers/server.js';

const live = useTestServer();
const configFile = (home: NodeJS.ProcessEnv) => join(home.XDG_CONFIG_HOME!, 'crm', 'config.json');

describe('profiles over the network', () => {
  it('precedence: --profile > CRM_PROFILE > active profile; CRM_API_KEY overrides the stored key', async () => {
    const home = freshHome();
    mkdirSync(join(home.XDG_CONFIG_HOME!, 'crm'), { recursive: true });
    writeFileSync(
      configFile(home),
      JSON.stringify({ active_profile: 'broken', profiles: { broken: { base_url: 'http://127.0.0.1:9', api_key: 'x' }, good: { base_url: live.server.url, api_key: live.server.apiKey } } }),
    );
    expect((await crm(['contacts', 'list', '-q', '--limit', '1'], { env: home })).code).toBe(6);
    expect((await crm(['contacts', 'list', '-q', '--limit', '1'], { env: { ...home, CRM_PROFILE: 'good' } })).code).toBe(0);
    expect((await crm(['contacts', 'list', '-q', '--limit', '1', '--profile', 'broken'], { env: { ...home, CRM_PROFILE: 'good' } })).code).toBe(6);
    expect((await crm(['contacts', 'list', '-q', '--limit', '1', '--profile', 'good'], { env: { ...home, CRM_API_KEY: 'wrong' } })).code).toBe(3);
    expect((await crm(['contacts', 'list', '-q', '--limit', '1'], { env: { ...home, CRM_BASE_URL: live.server.url, CRM_API_KEY: live.server.apiKey } })).code).toBe(0);
    expect((await crm(['contacts', 'list', '-q', '--limit', '1', '--base-url', live.server.url], { env: { ...home, CRM_API_KEY: live.server.apiKey } })).code).toBe(0);
  });
});
