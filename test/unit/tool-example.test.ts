// An MCP tool's example, when its definition writes none as tool arguments: the required arguments
// with stand-ins named by the registry (the resource an id points at), not made from help text.
import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/commands/command.js';
import { COMMANDS } from '../../src/commands/index.js';
import { selectTools } from '../../src/commands/mcp/tools.js';

const exampleOf = (description: string) => /\nExample: (\{.*\})/.exec(description)?.[1];

describe('a tool example without written arguments', () => {
  it('names the resource its ids point at, whatever the help text says', () => {
    const accept = defineCommand({
      command: ['ai', 'accept'],
      summary: 'Accept AI suggestions',
      endpoint: 'ai_accept',
      args: [{ name: 'ids', type: 'ids', description: 'what to accept, as ids', references: 'suggestion', variadic: true }],
      examples: [],
    });
    const [tool] = selectTools([accept]);
    expect(JSON.parse(exampleOf(tool!.definition.description)!)).toEqual({ ids: ['<suggestion id>'] });
  });

  it('is so for ai_accept', () => {
    const tool = selectTools(COMMANDS).find((candidate) => candidate.name === 'ai_accept')!;
    expect(exampleOf(tool.definition.description)).toBe('{"ids":["<suggestion id>"]}');
  });
});
