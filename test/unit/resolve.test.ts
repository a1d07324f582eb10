import { describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/config/resolve.js';
import type { ConfigData } from '../../src/config/store.js';

const config: ConfigData = {
  active_profile: 'work',
  profiles: {
    work: { base_url: 'https://work.example.com', api_key: 'work_key' },
    home: { base_url: 'https://home.example.com/api/v1', api_key: 'home_key' },
  },
};

describe('resolveTarget', () => {
  it('uses the sandbox when nothing is configured', () => {
    expect(resolveTarget({}, {}, { profiles: {} })).toMatchObject({ kind: 'sandbox', profile: 'sandbox' });
  });
  it('uses the active profile', () => {
    expect(resolveTarget({}, {}, config)).toMatchObject({ kind: 'remote', profile: 'work', baseUrl: 'https://work.example.com/api/v1', apiKey: 'work_key', keySource: 'profile' });
  });
  it('flag > env > profile for the profile and the base URL', () => {
    expect(resolveTarget({ profile: 'home' }, { CRM_PROFILE: 'work' }, config)).toMatchObject({ profile: 'home', apiKey: 'home_key' });
    expect(resolveTarget({}, { CRM_PROFILE: 'home' }, config)).toMatchObject({ profile: 'home' });
    expect(resolveTarget({ baseUrl: 'https://flag.test' }, { CRM_BASE_URL: 'https://env.test' }, config)).toMatchObject({ baseUrl: 'https://flag.test/api/v1' });
    expect(resolveTarget({}, { CRM_BASE_URL: 'https://env.test' }, config)).toMatchObject({ baseUrl: 'https://env.test/api/v1', apiKey: 'work_key' });
  });
  it('CRM_API_KEY overrides the stored key', () => {
    expect(resolveTarget({}, { CRM_API_KEY: 'env_key' }, config)).toMatchObject({ apiKey: 'env_key', keySource: 'env' });
  });
  it('a base URL without a key resolves with no key (the command then exits 3)', () => {
    expect(resolveTarget({}, { CRM_BASE_URL: 'https://x.test' }, { profiles: {} })).toMatchObject({ kind: 'remote', apiKey: undefined, keySource: 'none' });
  });
  it('rejects an unknown profile and a key without a base URL', () => {
    expect(() => resolveTarget({ profile: 'nope' }, {}, config)).toThrow(/unknown profile "nope"/);
    expect(() => resolveTarget({}, { CRM_API_KEY: 'k' }, { profiles: {} })).toThrow(/no base URL/);
  });
  it('"default" is used when no profile is marked active', () => {
    expect(resolveTarget({}, {}, { profiles: { default: { base_url: 'https://d.test', api_key: 'k' } } })).toMatchObject({ profile: 'default' });
  });
});
