import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES, STEP_FIELDS } from '../../src/registry/resources.js';
import { startSandbox, type Json, type TestSandbox } from './helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

const STEPS = [
  { day: 0, channel: 'email', subject: 'Hello' },
  { day: 3, channel: 'call', subject: 'Call' },
];

async function newContactId(): Promise<string> {
  const unique = Math.random().toString(36).slice(2, 10);
  return (await sb.api('POST', '/contacts', { name: `Seq ${unique}`, email: `seq.${unique}@example.com` })).body.data.id;
}

describe('sequences', () => {
  it('GET /sequences lists the seeded sequences with steps and enrolled_count', async () => {
    const { status, body } = await sb.api('GET', '/sequences');
    expect(status).toBe(200);
    expect(body.data.total).toBe(4);
    expect(Object.keys(body.data.sequences[0])).toEqual(['id', 'name', 'description', 'status', 'steps', 'enrolled_count', 'created_at', 'updated_at']);
    expect(new Set(body.data.sequences.map((sequence: Json) => sequence.status))).toEqual(new Set(['active', 'paused', 'archived']));
    const enrolled = body.data.sequences.reduce((sum: number, sequence: Json) => sum + sequence.enrolled_count, 0);
    expect(enrolled).toBeGreaterThanOrEqual(25);
    expect(body.data.sequences[0].steps[0]).toEqual({ day: expect.any(Number), channel: expect.stringMatching(/^(email|call|task)$/), subject: expect.any(String) });
    expect((await sb.api('GET', '/sequences?status=archived')).body.data.total).toBe(1);
    expect((await sb.api('GET', '/sequences?search=webinar')).body.data.total).toBe(1);
  });

  it('POST /sequences creates a sequence (201) and validates steps', async () => {
    const { status, body } = await sb.api('POST', '/sequences', { name: 'Onboarding', description: 'New customers', steps: STEPS });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ name: 'Onboarding', status: 'active', steps: STEPS, enrolled_count: 0 });
    expect(body.data.id).toMatch(/^seq_/);
    expect((await sb.api('POST', '/sequences', { name: 'x', steps: [{ day: 1, channel: 'fax', subject: 's' }] })).body.error).toBe(
      'steps[0].channel must be one of: email, call, task',
    );
    expect((await sb.api('POST', '/sequences', { name: 'x', steps: [{ day: -1, channel: 'email', subject: 's' }] })).body.error).toBe(
      'steps[0].day must be an integer of 0 or more',
    );
    expect((await sb.api('POST', '/sequences', { name: 'x', steps: [{ day: 1, channel: 'email', subject: 's', wait: 2 }] })).body.error).toBe(
      'Unknown field: steps[0].wait',
    );
    expect((await sb.api('POST', '/sequences', { name: 'x', enrolled_count: 3 })).body.error).toBe('enrolled_count is read-only');
  });

  it("holds steps to the registry's limits: as many steps as the steps field's max, a subject as long as its maxLength", async () => {
    const steps = RESOURCES.sequence.fields.find((field) => field.name === 'steps')!.max!;
    const subject = STEP_FIELDS.find((field) => field.name === 'subject')!.maxLength!;
    const step = (text: string) => ({ day: 0, channel: 'email', subject: text });
    expect((await sb.api('POST', '/sequences', { name: 'x', steps: Array.from({ length: steps }, () => step('s')) })).status).toBe(201);
    expect((await sb.api('POST', '/sequences', { name: 'x', steps: Array.from({ length: steps + 1 }, () => step('s')) })).body.error).toBe(`steps must hold at most ${steps} steps`);
    expect((await sb.api('POST', '/sequences', { name: 'x', steps: [step('s'.repeat(subject))] })).status).toBe(201);
    const long = await sb.api('POST', '/sequences', { name: 'x', steps: [step('s'.repeat(subject + 1))] });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('steps[0].subject');
  });

  it('GET /sequences/{id}, PATCH /sequences/{id} and DELETE /sequences/{id}', async () => {
    const sequence = (await sb.api('POST', '/sequences', { name: 'Temp', steps: STEPS })).body.data;
    expect((await sb.api('GET', `/sequences/${sequence.id}`)).body).toEqual({ data: sequence, error: null });
    const patched = await sb.api('PATCH', `/sequences/${sequence.id}`, { status: 'paused', steps: [STEPS[1]] });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: sequence.id, name: 'Temp', status: 'paused', steps: [STEPS[1]] });
    expect((await sb.api('DELETE', `/sequences/${sequence.id}`)).body).toEqual({ data: { id: sequence.id, deleted: true }, error: null });
    expect((await sb.api('GET', `/sequences/${sequence.id}`)).body).toEqual({ data: null, error: 'Sequence not found' });
  });

  it('POST /sequences/{id}/enroll sorts ids into enrolled, already_enrolled and not_found', async () => {
    const sequence = (await sb.api('POST', '/sequences', { name: 'Bulk', steps: STEPS })).body.data;
    const [first, second] = [await newContactId(), await newContactId()];
    await sb.api('POST', `/contacts/${first}/sequences`, { sequence_id: sequence.id });
    const { status, body } = await sb.api('POST', `/sequences/${sequence.id}/enroll`, { contact_ids: [first, second, 'con_ghost', second] });
    expect(status).toBe(200);
    expect(body.data).toEqual({ sequence_id: sequence.id, enrolled: [second], already_enrolled: [first], not_found: ['con_ghost'] });
    expect((await sb.api('GET', `/sequences/${sequence.id}`)).body.data.enrolled_count).toBe(2);

    expect((await sb.api('POST', `/sequences/${sequence.id}/enroll`, { contact_ids: [] })).body.error).toBe('contact_ids must hold between 1 and 100 ids');
    const tooMany = Array.from({ length: 101 }, (_, index) => `con_${index}`);
    expect((await sb.api('POST', `/sequences/${sequence.id}/enroll`, { contact_ids: tooMany })).status).toBe(400);
    expect((await sb.api('POST', `/sequences/${sequence.id}/enroll`, { contact_ids: [1] })).body.error).toBe('contact_ids must be an array of id strings');
    expect((await sb.api('POST', `/sequences/${sequence.id}/enroll`, {})).body.error).toBe('contact_ids is required');
    expect((await sb.api('POST', '/sequences/seq_ghost/enroll', { contact_ids: [first] })).status).toBe(404);
    const archived = (await sb.api('GET', '/sequences?status=archived')).body.data.sequences[0];
    expect((await sb.api('POST', `/sequences/${archived.id}/enroll`, { contact_ids: [first] })).status).toBe(409);
  });

  it('GET /sequences/{id}/contacts lists enrolled contacts newest enrolment first', async () => {
    const sequence = (await sb.api('POST', '/sequences', { name: 'Members', steps: STEPS })).body.data;
    const [first, second] = [await newContactId(), await newContactId()];
    await sb.api('POST', `/sequences/${sequence.id}/enroll`, { contact_ids: [first] });
    sb.advanceClock(1000);
    await sb.api('POST', `/sequences/${sequence.id}/enroll`, { contact_ids: [second] });
    const { status, body } = await sb.api('GET', `/sequences/${sequence.id}/contacts`);
    expect(status).toBe(200);
    expect(body.data.total).toBe(2);
    expect(body.data.contacts.map((contact: Json) => contact.id)).toEqual([second, first]);
    expect(body.data.contacts[0]).toMatchObject({ enrollment_status: 'active', enrolled_at: expect.stringMatching(/Z$/) });
    expect(body.data.contacts[0]).toHaveProperty('email');
    expect((await sb.api('GET', '/sequences/seq_ghost/contacts')).status).toBe(404);
  });
});

describe('tasks', () => {
  it('GET /tasks lists tasks newest first and filters', async () => {
    const { status, body } = await sb.api('GET', '/tasks?limit=50');
    expect(status).toBe(200);
    expect(body.data.total).toBeGreaterThanOrEqual(40);
    expect(Object.keys(body.data.tasks[0])).toEqual([
      'id', 'title', 'description', 'status', 'priority', 'due_date', 'contact_id', 'deal_id', 'completed_at', 'created_at', 'updated_at',
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const overdue = await sb.api('GET', '/tasks?overdue=true&limit=50');
    expect(overdue.body.data.total).toBeGreaterThan(0);
    expect(overdue.body.data.tasks.every((task: Json) => task.status === 'open' && task.due_date < today)).toBe(true);
    const notOverdue = await sb.api('GET', '/tasks?overdue=false&limit=1');
    expect(notOverdue.body.data.total + overdue.body.data.total).toBe(body.data.total);
    const completed = await sb.api('GET', '/tasks?status=completed&priority=high');
    expect(completed.body.data.tasks.every((task: Json) => task.status === 'completed' && task.priority === 'high' && task.completed_at)).toBe(true);
    const contactId = body.data.tasks[0].contact_id;
    const byContact = await sb.api('GET', `/tasks?contact_id=${contactId}`);
    expect(byContact.body.data.tasks.every((task: Json) => task.contact_id === contactId)).toBe(true);
    expect((await sb.api('GET', '/tasks?overdue=maybe')).body.error).toBe('overdue must be one of: true, false');
  });

  it('POST /tasks creates a task (201) and checks its references', async () => {
    const deal = (await sb.api('GET', '/deals')).body.data.deals[0];
    const { status, body } = await sb.api('POST', '/tasks', { title: 'Prepare QBR', deal_id: deal.id, due_date: '2031-05-01' });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ title: 'Prepare QBR', deal_id: deal.id, contact_id: null, status: 'open', priority: 'normal', due_date: '2031-05-01' });
    expect((await sb.api('POST', '/tasks', { title: 'x', deal_id: 'deal_ghost' })).body.error).toBe("deal_id 'deal_ghost' does not match any deal");
    expect((await sb.api('POST', '/tasks', { title: 'x', priority: 'urgent' })).body.error).toBe('priority must be one of: low, normal, high');
    expect((await sb.api('POST', '/tasks', { title: 'x', completed_at: 'now' })).body.error).toBe('completed_at is read-only');
  });

  it('GET /tasks/{id}, PATCH /tasks/{id} and DELETE /tasks/{id}', async () => {
    const task = (await sb.api('POST', '/tasks', { title: 'Editable' })).body.data;
    expect((await sb.api('GET', `/tasks/${task.id}`)).body).toEqual({ data: task, error: null });
    const done = await sb.api('PATCH', `/tasks/${task.id}`, { status: 'completed', priority: 'low' });
    expect(done.body.data).toMatchObject({ status: 'completed', priority: 'low', completed_at: expect.stringMatching(/Z$/) });
    const reopened = await sb.api('PATCH', `/tasks/${task.id}`, { status: 'open' });
    expect(reopened.body.data).toMatchObject({ status: 'open', completed_at: null });
    expect((await sb.api('DELETE', `/tasks/${task.id}`)).body).toEqual({ data: { id: task.id, deleted: true }, error: null });
    expect((await sb.api('GET', `/tasks/${task.id}`)).body).toEqual({ data: null, error: 'Task not found' });
    expect((await sb.api('PATCH', `/tasks/${task.id}`, { title: 'x' })).status).toBe(404);
  });

  it('POST /tasks/{id}/complete completes once; a second call changes nothing', async () => {
    const task = (await sb.api('POST', '/tasks', { title: 'Finish me' })).body.data;
    const first = await sb.api('POST', `/tasks/${task.id}/complete`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: task.id, status: 'completed', completed_at: expect.stringMatching(/Z$/) });
    sb.advanceClock(5000);
    const second = await sb.api('POST', `/tasks/${task.id}/complete`, {});
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect((await sb.api('POST', `/tasks/${task.id}/complete`, { note: 'x' })).body.error).toBe('Unknown field: note');
    expect((await sb.api('POST', '/tasks/task_ghost/complete')).status).toBe(404);
  });
});
