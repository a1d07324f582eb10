// The commands of the service's endpoints (and the contacts group's import and export), group by
// group in help order. MCP serves the endpoint commands among them as tools.

import { ACCOUNTS } from './accounts/accounts.js';
import { AI } from './ai/ai.js';
import analytics from './analytics/command.js';
import type { Command } from './command.js';
import { CONTACTS } from './contacts/contacts.js';
import { DEALS } from './deals/deals.js';
import { PIPELINE } from './pipeline/pipeline.js';
import search from './search/command.js';
import { SEQUENCES } from './sequences/sequences.js';
import { TASKS } from './tasks/tasks.js';

export const SERVICE_COMMANDS: readonly Command[] = [...CONTACTS, ...ACCOUNTS, ...DEALS, ...SEQUENCES, ...TASKS, ...PIPELINE, search, analytics, ...AI];

