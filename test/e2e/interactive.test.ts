// A person at a real terminal (a pseudo-terminal): prompts rendered on stderr and validated as they
// type, confirmations, Ctrl-C, the masked key prompt, spinner and colour. Pickers and terminal views
// are tested in-process in test/commands/interactive.test.ts, the Retry-After countdown in
// test/commands/http.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/crm.js';
import { KEY, crmPty } from '../helpers/pty.js';
import { api, useTestServer } from '../helpers/server.js';

const live = useTestServer();

describe('contacts create at a terminal', () => {
  it('asks for the missing name and email, checks the email as it is typed, then creates', async () => {
    const term = crmPty(['contacts', 'create'], live.env);
    await term.waitFor('Full name');
    term.type(`Ada Lovelace${KEY.enter}`);
    await term.waitFor('Email address');
    term.type(`ada-at-example${KEY.enter}`);
    await term.waitFor('invalid email "ada-at-example"');
    expect(live.server.requests()).toHaveLength(0);
    term.type(`${KEY.backspace.repeat(14)}ada@example.com${KEY.enter}`);
    await term.waitFor('Company name (optional)');
    term.type(`Analytical Engines${KEY.enter}`);
    expect(await term.exit()).toBe(0);
    const posts = live.server.requests(/POST/);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!.body)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical Engines' });
    expect(term.screen()).toMatch(/name\s+Ada Lovelace/);
  });

  it('asks only for what the flags did not give', async () => {
    const term = crmPty(['contacts', 'create', '--name', 'Only Email'], live.env);
    await term.waitFor('Email address');
    expect(term.screen()).not.toContain('Full name');
    term.type(`only-email@example.com${KEY.enter}`);
    await term.waitFor('Company name (optional)');
    term.type(KEY.enter);
    expect(await term.exit()).toBe(0);
    expect(JSON.parse(live.server.requests(/POST/)[0]!.body)).toEqual({ name: 'Only Email', email: 'only-email@example.com' });
  });

  it('--no-input never prompts: exit 2 naming the missing flags', async () => {
    const term = crmPty(['contacts', 'create', '--no-input'], live.env);
    expect(await term.exit()).toBe(2);
    expect(term.screen()).toContain('crm: missing required --name, --email');
    expect(live.server.requests()).toHaveLength(0);
  });

  it('Ctrl-C at a prompt exits 130 and sends nothing', async () => {
    const term = crmPty(['contacts', 'create'], live.env);
    await term.waitFor('Full name');
    term.type(KEY.ctrlC);
    expect(await term.exit()).toBe(130);
    expect(live.server.requests()).toHaveLength(0);
  });
});

describe('delete confirmation', () => {
  it('deletes when the person says yes', async () => {
    const contact = (await api(live.server, 'POST', '/contacts', { name: 'Confirm Me', email: 'confirm-me@example.com' })).data;
    const term = crmPty(['contacts', 'delete', contact.id], live.env);
    await term.waitFor(`Delete contact ${contact.id} (${contact.name})?`);
    term.type(`y${KEY.enter}`);
    expect(await term.exit()).toBe(0);
    expect(term.screen()).toContain(`✓ Deleted contact ${contact.id}`);
    expect(live.server.requests(/DELETE/)).toHaveLength(1);
  });

  it('deletes nothing when the person says no (exit 130)', async () => {
    const contact = (await api(live.server, 'POST', '/contacts', { name: 'Keep Me', email: 'keep-me@example.com' })).data;
    const term = crmPty(['contacts', 'delete', contact.id], live.env);
    await term.waitFor(`Delete contact ${contact.id} (${contact.name})?`);
    term.type(KEY.enter); // the default is no
    expect(await term.exit()).toBe(130);
    expect(term.screen()).toContain('crm: cancelled');
    // The GET that named the record in the question; no DELETE.
    expect(live.server.requests().map((request) => request.method)).toEqual(['GET']);
  });
});

describe('auth login at a terminal', () => {
  it('asks for the key without showing it, verifies it, and saves it', async () => {
    const home = freshHome();
    const term = crmPty(['auth', 'login', '--base-url', live.server.url], home);
    await term.waitFor('API key');
    term.type(`${live.server.apiKey}${KEY.enter}`);
    expect(await term.exit()).toBe(0);
    expect(term.screen()).not.toContain(live.server.apiKey);
    expect(term.screen()).toContain('✓ Logged in');
    const config = JSON.parse(readFileSync(join(home.XDG_CONFIG_HOME!, 'crm', 'config.json'), 'utf8'));
    expect(config.profiles.default.api_key).toBe(live.server.apiKey);
  });
});

describe('terminal niceties', () => {
  it('shows a spinner on stderr while a slow request is under way', async () => {
    live.server.fault({ match: /GET/, delayMs: 1500 });
    const term = crmPty(['contacts', 'list', '--limit', '1'], live.env);
    await term.waitFor('Waiting for the service');
    expect(await term.exit()).toBe(0);
  });

  it('colours table headers on a terminal, not with NO_COLOR or --no-color', async () => {
    const raw = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
      const term = crmPty(args, { ...live.env, ...extra });
      expect(await term.exit()).toBe(0);
      return term.raw();
    };
    expect(await raw(['contacts', 'list', '--limit', '1'])).toMatch(/\x1b\[1m\x1b\[36mID/);
    expect(await raw(['contacts', 'list', '--limit', '1'], { NO_COLOR: '1' })).not.toMatch(/\x1b\[3\dm/);
    expect(await raw(['contacts', 'list', '--limit', '1', '--no-color'])).not.toMatch(/\x1b\[3\dm/);
  });

});
