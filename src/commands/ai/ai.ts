// crm ai: the group.

import type { Command } from '../command.js';
import accept from './accept/command.js';
import suggestions from './suggestions/command.js';
import trigger from './trigger/command.js';

export const AI: readonly Command[] = [suggestions, accept, trigger];
