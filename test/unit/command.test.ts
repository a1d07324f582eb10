// A handler's input is typed by its command's definition: npm test type-checks this file, and each
// expected error below fails the type-check the day a misspelt name compiles again.
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../src/commands/command.js';
import type { Spec as SearchSpec } from '../../src/commands/search/command.js';
import type { Spec as WatchSpec } from '../../src/commands/watch/command.js';
import { COMMANDS } from '../../src/commands/index.js';
import { idsField } from '../../src/commands/endpoint.js';
import { CONCURRENCY_OPTIONS } from '../../src/registry/options.js';

describe('a definition types its handler', () => {
  it('knows the names it declares, and no others', () => {
    const watch: Handler<WatchSpec> = async (_ctx, { args, options }) => {
      const resource: 'contacts' | 'deals' | 'tasks' | 'accounts' | 'sequences' = args.resource;
      const forwardTo: string | undefined = options.forward_to;
      const interval: number | undefined = options.interval;
      // @ts-expect-error a misspelt option
      void options.forwad_to;
      // @ts-expect-error an option of another command
      void options.upsert;
      return { kind: 'value', value: [resource, forwardTo, interval] };
    };
    const search: Handler<SearchSpec> = async (_ctx, { args, options }) => {
      // The endpoint's filters and paging are typed too.
      const types: Array<'contacts' | 'deals' | 'accounts' | 'tasks'> | undefined = options.types;
      const limit: number | undefined = options.limit;
      // @ts-expect-error the flag's name, not the field's
      void args.query;
      return { kind: 'value', value: [args.q, types, limit] };
    };
    expect([watch, search].every((handler) => typeof handler === 'function')).toBe(true);
  });

  it('every command is findable by its words, with a handler or an endpoint to run', () => {
    for (const command of COMMANDS) expect(command.load !== undefined || command.endpoint !== undefined, command.command.join(' ')).toBe(true);
    expect(new Set(COMMANDS.map((command) => command.command.join(' '))).size).toBe(COMMANDS.length);
  });

  it('every command that acts on several records by id (update, delete, actions) takes --concurrency, as contacts import does', () => {
    const several = COMMANDS.filter((command) => idsField(command));
    expect(several.length).toBeGreaterThan(6);
    for (const command of several) expect(command.options, command.command.join(' ')).toContain(CONCURRENCY_OPTIONS[0]);
  });
});
