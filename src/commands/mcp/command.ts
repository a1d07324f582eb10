// crm mcp [--read-only] [--toolsets GROUP,...]: every endpoint as a tool for AI agents (stdio).

import { GROUP_NAMES, example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['mcp'],
  summary: 'Serve every endpoint as a tool for AI agents (Model Context Protocol on stdio)',
  options: [
    { name: 'read_only', type: 'boolean', description: 'leave out every tool that writes (only reads: list, get, search, analytics...)' },
    { name: 'toolsets', type: 'list', choices: GROUP_NAMES, description: 'only the tools of these groups, comma-separated' },
  ],
  examples: [
    ex('crm mcp', 'every endpoint as a tool, on the active profile (or the local sandbox)'),
    ex('crm mcp --read-only --toolsets contacts,deals,search', 'reading tools of three groups only'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
