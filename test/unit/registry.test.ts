// The endpoint registry (which drives the commands) and the sandbox (which implements the service)
// describe the same 40 endpoints of service-api.md section 4.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/registry/operations.js';
import { flagName } from '../../src/registry/types.js';
import { ROUTES } from '../../src/sandbox/handler.js';

const key = (method: string, path: string) => `${method} ${path.replace(/\{(\w+)\}|:(\w+)/g, '{}')}`;

describe('the endpoint registry', () => {
  it('has one command for each of the 40 endpoints, the same ones the sandbox serves', () => {
    const commands = OPERATIONS.map((op) => key(op.method, op.path));
    expect(new Set(commands).size).toBe(40);
    expect(commands.length).toBe(40);
    expect(new Set(commands)).toEqual(new Set(ROUTES.map((route) => key(route.method, route.path))));
  });

  it('gives every command a unique name and every flag a unique spelling', () => {
    const names = OPERATIONS.map((op) => op.command.join(' '));
    expect(new Set(names).size).toBe(names.length);
    for (const op of OPERATIONS) {
      const flags = [...(op.query ?? []), ...(op.body ?? [])].map(flagName);
      expect(new Set(flags).size, op.command.join(' ')).toBe(flags.length);
    }
  });

  it('fills every path placeholder from a positional argument', () => {
    for (const op of OPERATIONS) {
      const placeholders = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const args = (op.args ?? []).map((arg) => arg.name);
      for (const name of placeholders) {
        // Multi-id commands (tasks complete, ai accept) fill {id} from each of their ids.
        expect(args.includes(name!) || args.includes('ids'), `${op.command.join(' ')} {${name}}`).toBe(true);
      }
    }
  });
});
