// docs/commands.md is generated from the command tree; it must match what the code says.
// `npm run docs` (UPDATE_DOCS=1) rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderReference } from '../../src/docs/reference.js';

const path = new URL('../../docs/commands.md', import.meta.url);

describe('docs/commands.md', () => {
  it('is up to date with the command tree (run `npm run docs` after changing commands)', () => {
    const rendered = renderReference();
    if (process.env.UPDATE_DOCS) writeFileSync(path, rendered);
    expect(readFileSync(path, 'utf8')).toBe(rendered);
  });

  it('documents every command with its endpoint', () => {
    const text = renderReference();
    for (const endpoint of ['[GET /contacts]', '[POST /deals/{id}/stage]', '[POST /ai/trigger]', '[GET /sequences/{id}/contacts]']) {
      expect(text).toContain(endpoint);
    }
    for (const heading of ['## crm contacts list', '## crm auth login', '## crm sandbox serve', '## crm api', '## crm search', '## crm analytics']) {
      expect(text).toContain(`${heading}\n`);
    }
  });
});
