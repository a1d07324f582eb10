// crm sequences: the group. Its CRUD commands are declared from the registry's sequence.

import { DEMO } from '../../registry/demo.js';
import { example as ex } from '../../registry/types.js';
import type { Command } from '../command.js';
import { crud } from '../crud.js';
import contacts from './contacts/command.js';
import enroll from './enroll/command.js';

const steps = [{ day: 0, channel: 'email', subject: 'Welcome' }];

export const SEQUENCES: readonly Command[] = [
  ...crud('sequence', {
    list: [ex('crm sequences list --status active', 'the active sequences', { tool: { status: 'active' } })],
    get: [ex(`crm sequences get ${DEMO.sequence}`, 'one sequence with its steps', { tool: { id: DEMO.sequence } })],
    create: [ex(`crm sequences create --name "Trial follow-up" --set 'steps=${JSON.stringify(steps)}'`, 'a sequence with one step', { tool: { name: 'Trial follow-up', steps } })],
    update: [ex(`crm sequences update ${DEMO.sequence} --status paused`, 'pause a sequence', { tool: { ids: [DEMO.sequence], status: 'paused' } })],
    delete: [ex(`crm sequences delete ${DEMO.sequence} --yes`, 'delete without asking', { tool: { ids: [DEMO.sequence] } })],
  }),
  enroll,
  contacts,
];
