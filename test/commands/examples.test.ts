// Every example of the registry (help pages, docs/commands.md, MCP tool descriptions) runs on a fresh
// sandbox and exits 0. Each gets its own copy of the seeded database, in-process. Pipes into another
// crm (`... -q | crm sequences enroll SEQ -`), `| xargs crm ...` and `$(crm ...)` are run as a shell
// would; an example that needs more (a terminal, a real workspace) says so in the registry.
import { describe, expect, it } from 'vitest';
import { TERMINAL, type Example } from '../../src/registry/types.js';
import { parseCommandLine, runPipeline } from '../helpers/examples.js';
import { openWorkspace } from '../helpers/inprocess.js';
import { LOCAL_COMMANDS, ENDPOINT_COMMANDS } from '../helpers/tree.js';

const examples: Array<[string, Example]> = [...ENDPOINT_COMMANDS, ...LOCAL_COMMANDS].flatMap((spec) => spec.examples.map((example): [string, Example] => [spec.command.join(' '), example]));

describe('the examples of the registry', () => {
  it('are many, and every command has one', () => {
    expect(examples.length).toBeGreaterThan(ENDPOINT_COMMANDS.length + LOCAL_COMMANDS.length);
  });

  it.each(examples.filter(([, example]) => !example.needs || example.needs === TERMINAL))('%s: %s', async (_command, example) => {
    const ws = await openWorkspace();
    try {
      const outcome = await runPipeline(parseCommandLine(example.command), ws, example.needs === TERMINAL);
      expect(outcome.code, `${example.command}\n${outcome.stderr}`).toBe(0);
    } finally {
      ws.close();
    }
  });

  it('that create a contact run one after another on one sandbox: each creates its own (crm --help, then crm api --help, is no 409)', async () => {
    const creating = examples.filter(([, example]) => !example.needs && /^crm (contacts create|api \/contacts .*-f )/.test(example.command));
    expect(creating.length).toBeGreaterThan(1);
    const ws = await openWorkspace();
    try {
      for (const [, example] of creating) {
        const outcome = await runPipeline(parseCommandLine(example.command), ws);
        expect(outcome.code, `${example.command}\n${outcome.stderr}`).toBe(0);
      }
    } finally {
      ws.close();
    }
  });

  // Skipped with the reason the registry gives, so the list of what is not run is visible.
  it.skip.each(examples.filter(([, example]) => example.needs && example.needs !== TERMINAL).map(([command, example]) => [command, example.command, example.needs]))('%s: %s (needs %s)', () => {});
});
