// The secrets scan itself: it finds a key wherever it appears whole, and nothing else.
import { describe, expect, it } from 'vitest';
import { findLeaks } from './scan.js';

const KEY = 'sbx_test_abcdefghijklmnopqrstuvwxyz012345';

describe('findLeaks', () => {
  it('finds a key anywhere in what crm printed, showing only its last 4 characters', () => {
    const leaks = findLeaks([
      { secrets: [KEY], output: `crm: invalid key ${KEY}\n` },
      { secrets: ['other_key_0123456789', KEY], output: `{"note":"${KEY}"}` },
    ]);
    expect(leaks).toEqual([
      { key: '…2345', excerpt: 'crm: invalid key <KEY>\n' },
      { key: '…2345', excerpt: '{"note":"<KEY>"}' },
    ]);
    expect(JSON.stringify(leaks)).not.toContain(KEY);
  });

  it('does not count the masked key, a part of it, or another capture’s key', () => {
    expect(
      findLeaks([
        { secrets: [KEY], output: `X-Service-API-Key: ****2345\nkey ${KEY.slice(0, -1)}` },
        { secrets: ['other_key_0123456789'], output: KEY },
      ]),
    ).toEqual([]);
  });
});
