// The registry (which drives the commands, checks, prompts, docs and MCP tools) and the sandbox
// (which implements the service, validating with the registry's facts) must agree: on the 40
// endpoints, on the fields of every record, on every list filter, and on what a valid value is.
import { afterAll, describe, expect, it } from 'vitest';
import { parseValue } from '../../src/cli/input.js';
import { RESOURCES, STATUS, writableFields } from '../../src/registry/resources.js';
import { flagName, staticValues, type FieldSpec } from '../../src/registry/types.js';
import { ROUTES } from '../../src/sandbox/handler.js';
import { declareFilters, endpointAt } from '../../src/sandbox/lists.js';
import { openWorkspace } from '../helpers/inprocess.js';
import { ENDPOINT_COMMANDS } from '../helpers/tree.js';

const key = (method: string, path: string) => `${method} ${path.replace(/\{(\w+)\}|:(\w+)/g, '{}')}`;

describe('the endpoint registry', () => {
  it('has one command for each of the 40 endpoints, the same ones the sandbox serves', () => {
    const commands = ENDPOINT_COMMANDS.map((op) => key(op.method, op.path));
    expect(new Set(commands).size).toBe(40);
    expect(commands.length).toBe(40);
    expect(new Set(commands)).toEqual(new Set(ROUTES.map((route) => key(route.method, route.path))));
  });

  it('gives every command a unique name and every flag a unique spelling', () => {
    const names = ENDPOINT_COMMANDS.map((op) => op.command.join(' '));
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(ENDPOINT_COMMANDS.map((op) => op.name)).size).toBe(ENDPOINT_COMMANDS.length);
    for (const op of ENDPOINT_COMMANDS) {
      const flags = [...op.query, ...op.body, ...op.options].map(flagName);
      expect(new Set(flags).size, op.command.join(' ')).toBe(flags.length);
    }
  });

  it('fills every path placeholder from a positional argument', () => {
    for (const op of ENDPOINT_COMMANDS) {
      const placeholders = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const args = op.args.map((arg) => arg.name);
      for (const name of placeholders) {
        // Multi-id commands (tasks complete, ai accept) fill {id} from each of their ids.
        expect(args.includes(name!) || args.includes('ids'), `${op.command.join(' ')} {${name}}`).toBe(true);
      }
    }
  });

  it('gives every operation at least one example that starts with its own command', () => {
    for (const op of ENDPOINT_COMMANDS) {
      expect(op.examples.length, op.name).toBeGreaterThan(0);
      for (const example of op.examples) expect(example.command, op.name).toContain(`crm ${op.command.join(' ')}`);
    }
  });
});

describe('the statuses code names (STATUS)', () => {
  it('are each record\'s status field\'s values, and a status no record has does not compile', () => {
    for (const [resource, statuses] of Object.entries(STATUS)) {
      const field = RESOURCES[resource as keyof typeof STATUS].fields.find((one) => one.name === 'status');
      expect(Object.values(statuses), resource).toEqual(staticValues(field!));
      for (const [name, value] of Object.entries(statuses)) expect(value).toBe(name);
    }
    // @ts-expect-error a misspelt status (npm test type-checks this file: the line must not compile)
    expect(STATUS.task.opne).toBeUndefined();
    // @ts-expect-error a deal is never completed
    expect(STATUS.deal.completed).toBeUndefined();
  });
});

describe('the registry and the sandbox', async () => {
  const ws = await openWorkspace();
  afterAll(() => ws.close());
  const { api } = ws;
  const firstOf = (path: string, key: string) => api('GET', `${path}?limit=1`).data[key][0];
  const names = (fields: readonly FieldSpec[]) => fields.map((field) => field.name).sort();

  it('answer every record with exactly the fields the registry names', () => {
    const contact = firstOf('/contacts', 'contacts');
    const deal = firstOf('/deals', 'deals');
    const records: Record<string, unknown> = {
      contact: api('GET', `/contacts/${contact.id}`).data,
      account: api('GET', `/accounts/${firstOf('/accounts', 'accounts').id}`).data,
      deal: api('GET', `/deals/${deal.id}`).data,
      sequence: api('GET', `/sequences/${firstOf('/sequences', 'sequences').id}`).data,
      task: api('GET', `/tasks/${firstOf('/tasks', 'tasks').id}`).data,
      note: api('POST', `/contacts/${contact.id}/notes`, { body: 'A note' }).data,
      enrollment: api('POST', `/contacts/${contact.id}/sequences`, { sequence_id: api('POST', '/sequences', { name: 'Agreement' }).data.id }).data,
      suggestion: firstOf('/ai/suggestions', 'suggestions'),
      stage: firstOf('/pipeline/stages', 'stages'),
      activity: api('POST', `/deals/${deal.id}/stage`, { stage: deal.stage === 'proposal' ? 'negotiation' : 'proposal' }).data.activity,
    };
    for (const [resource, record] of Object.entries(records)) {
      expect(Object.keys(record as object).sort(), resource).toEqual(names(RESOURCES[resource as keyof typeof RESOURCES].fields));
    }
  });

  /** A value the sandbox should accept for a writable field. */
  const sample = (resource: string, field: FieldSpec, n: number): unknown => {
    const values = staticValues(field);
    if (values) return values[values.length - 1];
    if (field.known === 'stages') return 'proposal';
    if (field.references) return firstOf(`/${RESOURCES[field.references].plural}`, RESOURCES[field.references].plural).id;
    switch (field.type) {
      case 'email':
        return `agreement-${resource}-${n}@example.com`;
      case 'integer':
        return 7;
      case 'number':
        return 1234.5;
      case 'date':
        return '2030-01-31';
      case 'ids':
        return [];
      case 'json':
        return [{ day: 1, channel: 'email', subject: 'Hello' }];
      default:
        return field.name === 'currency' ? 'EUR' : `Agreement ${field.name}`;
    }
  };

  it('accept every writable field of the registry, on create and on update, and refuse the read-only ones', () => {
    let n = 0;
    for (const resource of ['contact', 'account', 'deal', 'sequence', 'task'] as const) {
      const { plural } = RESOURCES[resource];
      const fields = writableFields(resource);
      const body = Object.fromEntries(fields.map((field) => [field.name, sample(resource, field, n++)]));
      const createdRecord = api('POST', `/${plural}`, body);
      expect(createdRecord.status, `${resource}: ${JSON.stringify(createdRecord.error)}`).toBe(201);
      for (const field of fields) {
        const updated = api('PATCH', `/${plural}/${createdRecord.data.id}`, { [field.name]: sample(resource, field, n++) });
        expect(updated.status, `${resource}.${field.name}: ${JSON.stringify(updated.error)}`).toBe(200);
      }
      for (const field of RESOURCES[resource].fields.filter((candidate) => candidate.readOnly)) {
        const refused = api('PATCH', `/${plural}/${createdRecord.data.id}`, { [field.name]: 'x' });
        expect(refused, `${resource}.${field.name}`).toMatchObject({ status: 400, error: `${field.name} is read-only` });
      }
    }
  });

  it('apply every filter of every list operation (each one narrows the list)', () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const op of ENDPOINT_COMMANDS.filter((candidate) => candidate.kind === 'list' && candidate.query.length > 0 && candidate.name !== 'search')) {
      for (const field of op.query) {
        const values = staticValues(field);
        const value = field.type === 'boolean' ? 'true' : values ? values[0]! : field.name === 'search' ? 'no-such-text-anywhere' : field.known === 'stages' ? 'proposal' : 'x_none';
        const answer = api('GET', `${op.path}?${field.name}=${encodeURIComponent(value)}&limit=50`);
        expect(answer.status, `${op.name} ${field.name}`).toBe(200);
        const records = answer.data[op.listKey!] as Array<Record<string, unknown>>;
        if (value === 'no-such-text-anywhere' || value === 'x_none') expect(records, `${op.name} ${field.name}`).toEqual([]);
        else if (field.name === 'overdue') for (const record of records) expect(record.status === 'open' && String(record.due_date) < today).toBe(true);
        else for (const record of records) expect(record[field.name], `${op.name} ${field.name}`).toBe(value);
      }
    }
  });

  it('refuse to load when a list route and the registry disagree on a filter', () => {
    const op = endpointAt('GET', '/contacts');
    expect(() => declareFilters(op, { search: () => ({ sql: '1', params: [] }) })).toThrow(/differ from the registry's/);
  });

  it('share one email rule: what the CLI refuses before sending is what the sandbox refuses', () => {
    const emails = ['ada@example.com', 'a.b+c@sub.example.co', 'ada@example', 'ada@@example.com', 'ada example@x.com', 'ada@x..com', '@x.com', 'ada@.com', 'ada@x.c'];
    for (const email of emails) {
      let cli = true;
      try {
        parseValue(email, { type: 'email' }, '--email');
      } catch {
        cli = false;
      }
      const sandbox = api('POST', '/contacts', { name: 'Email Rule', email }).status === 201;
      expect(sandbox, email).toBe(cli);
    }
  });
});
