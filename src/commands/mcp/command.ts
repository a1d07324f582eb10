// crm mcp [--read-only] [--toolsets GROUP,...] [--tools NAME,...] [--exclude-tools NAME,...]: every
// endpoint as a tool for AI agents (stdio).

import { GROUP_NAMES, example as ex } from '../../registry/types.js';
import { defineCommand, type CommandSpec } from '../command.js';

const spec = {
  command: ['mcp'],
  summary: 'Serve every endpoint as a tool for AI agents (Model Context Protocol on stdio)',
  options: [
    { name: 'read_only', type: 'boolean', description: 'leave out every tool that writes (only reads: list, get, search, analytics...; env CRM_READ_ONLY=1)' },
    { name: 'toolsets', type: 'list', choices: GROUP_NAMES, description: 'only the tools of these groups, comma-separated (env CRM_TOOLSETS)' },
    // Tool names are checked when the server starts, with "did you mean" (./run.ts).
    { name: 'tools', type: 'list', description: 'these tools too (alone: only these), comma-separated' },
    { name: 'exclude_tools', type: 'list', description: 'leave out these tools, comma-separated' },
  ],
  examples: [
    ex('crm mcp', 'every endpoint as a tool, on the active profile (or the local sandbox)'),
    ex('crm mcp --read-only --toolsets contacts,deals,search', 'reading tools of three groups only'),
    ex('crm mcp --toolsets tasks --tools contacts_get --exclude-tools tasks_delete', 'the tasks group and one more tool, less one'),
  ],
} as const satisfies CommandSpec;

export type Spec = typeof spec;
export default defineCommand(spec, () => import('./run.js'));
