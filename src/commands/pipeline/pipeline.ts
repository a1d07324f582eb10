// crm pipeline: the group.

import type { Command } from '../command.js';
import deals from './deals/command.js';
import stages from './stages/command.js';

export const PIPELINE: readonly Command[] = [stages, deals];
