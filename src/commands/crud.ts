// The five commands of every resource (list, get, create, update, delete), declared from the
// registry's resource and its endpoints: no code of their own, the generic runner runs them. A
// group passes its examples, and its own definition of a command that does more (contacts create),
// or its record's whole view (contacts view): then `view` is that command, no longer get's alias.

import type { EndpointName } from '../registry/endpoints.js';
import { CONCURRENCY_OPTIONS } from '../registry/options.js';
import { NATURAL_KEYS, RESOURCES, idOrKey } from '../registry/resources.js';
import type { Example, FieldSpec, ResourceName } from '../registry/types.js';
import { defineCommand, type Command } from './command.js';

/** The positional argument of a command about one record: its id (or, for a contact or an account, its email or name). */
export const idArg = <R extends ResourceName>(resource: R) => ({ name: 'id', type: 'id', description: idOrKey(resource), references: resource }) as const satisfies FieldSpec;

/**
 * The positional argument of a command that acts on one record or several (update, delete, enroll,
 * a stage move): ids (or emails, names), `-` reading them from stdin (./bulk.ts).
 */
export const idsArg = <R extends ResourceName>(resource: R) =>
  ({
    name: 'ids',
    type: 'ids',
    description: `${idOrKey(resource)}; several, or \`-\` to read them from stdin`,
    forAgents: NATURAL_KEYS[resource] ? `${resource} ids or ${NATURAL_KEYS[resource]}s` : `${resource} ids`,
    references: resource,
    variadic: true,
  }) as const satisfies FieldSpec;

const article = (noun: string) => (/^[aeiou]/.test(noun) ? 'an' : 'a');

/** A resource's five commands, in help order. */
const VERBS = ['list', 'get', 'create', 'update', 'delete'] as const;
type Verb = (typeof VERBS)[number];

export function crud(resource: ResourceName, examples: Readonly<Record<Verb, readonly Example[]>>, own: Partial<Record<Verb | 'view', Command>> = {}): Command[] {
  const { plural, columns } = RESOURCES[resource];
  const noun = resource;
  const endpoint = (verb: Verb) => `${plural}_${verb}` as EndpointName;
  const declared: Record<Verb, () => Command> = {
    list: () => defineCommand({ command: [plural, 'list'], aliases: ['ls'], summary: `List ${plural}, newest first`, endpoint: endpoint('list'), columns, examples: examples.list }),
    get: () =>
      defineCommand({ command: [plural, 'get'], aliases: own.view ? [] : ['view'], summary: `Show one ${noun} (or several)`, endpoint: endpoint('get'), args: [idsArg(noun)], options: CONCURRENCY_OPTIONS, mcp: { summary: `Show one ${noun}` }, examples: examples.get }),
    create: () => defineCommand({ command: [plural, 'create'], aliases: ['new'], summary: `Create ${article(noun)} ${noun}`, endpoint: endpoint('create'), columns, examples: examples.create }),
    update: () =>
      defineCommand({ command: [plural, 'update'], aliases: ['edit'], summary: `Change fields of ${article(noun)} ${noun} (or several)`, endpoint: endpoint('update'), args: [idsArg(noun)], options: CONCURRENCY_OPTIONS, columns, examples: examples.update }),
    delete: () => defineCommand({ command: [plural, 'delete'], aliases: ['rm'], summary: `Delete ${article(noun)} ${noun} (or several)`, endpoint: endpoint('delete'), args: [idsArg(noun)], options: CONCURRENCY_OPTIONS, examples: examples.delete }),
  };
  const commands = VERBS.map((verb) => own[verb] ?? declared[verb]());
  return own.view ? [...commands.slice(0, 2), own.view, ...commands.slice(2)] : commands;
}
