// The demo workspace every new sandbox holds: accounts, contacts, deals, sequences, tasks and their
// history, generated from a fixed seed, so the same ids exist on every install (src/registry/demo.ts).

import { CONTACT_STATUSES, type SequenceStatus } from '../registry/resources.js';
import type { ContactStatus } from './contact-model.js';
import { newId, type IdPrefix } from './ids.js';
import { utcDate } from './records.js';
import type { SequenceStep } from './routes/sequences.js';
import { clockOf, fileSuggestion, findDealRisks, scoreContact, suggestNextAction, type ContactScore } from './scoring.js';
import type { Store } from './store.js';

/** Fixed so that every new sandbox holds the same demo workspace (ids and all), shifted to its creation time. */
const SEED = 20_240_601;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** mulberry32: small, fast and good enough for demo data. */
class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [0, n), the shape newId wants. */
  readonly index = (n: number): number => Math.floor(this.next() * n);

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.index(items.length)];
  }

  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    let roll = this.next() * choices.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const shuffled = [...items];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = this.index(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    return shuffled;
  }
}

const ACCOUNTS = [
  { name: 'Northwind Traders', domain: 'northwindtraders.com', industry: 'Wholesale', employees: 420 },
  { name: 'Acme Robotics', domain: 'acmerobotics.io', industry: 'Manufacturing', employees: 1200 },
  { name: 'Globex Logistics', domain: 'globexlogistics.com', industry: 'Logistics', employees: 3400 },
  { name: 'Initech Software', domain: 'initech.io', industry: 'Software', employees: 260 },
  { name: 'Umbrella Health', domain: 'umbrellahealth.com', industry: 'Healthcare', employees: 5100 },
  { name: 'Stark Analytics', domain: 'starkanalytics.ai', industry: 'Software', employees: 85 },
  { name: 'Wayne Capital', domain: 'waynecapital.com', industry: 'Financial Services', employees: 640 },
  { name: 'Hooli Cloud', domain: 'hooli.cloud', industry: 'Software', employees: 9800 },
  { name: 'Vandelay Imports', domain: 'vandelayimports.com', industry: 'Wholesale', employees: 45 },
  { name: 'Soylent Foods', domain: 'soylentfoods.com', industry: 'Food & Beverage', employees: 2300 },
  { name: 'Cyberdyne Systems', domain: 'cyberdyne.tech', industry: 'Manufacturing', employees: 780 },
  { name: 'Tyrell Biotech', domain: 'tyrellbio.com', industry: 'Biotechnology', employees: 310 },
  { name: 'Pied Piper', domain: 'piedpiper.net', industry: 'Software', employees: 32 },
  { name: 'Oscorp Energy', domain: 'oscorpenergy.com', industry: 'Energy', employees: 1500 },
  { name: 'Massive Dynamic', domain: 'massivedynamic.com', industry: 'Research', employees: 2600 },
];

const INDEPENDENT_COMPANIES = [
  { name: 'Bluebird Studio', domain: 'bluebirdstudio.co' },
  { name: 'Harbor Dental Group', domain: 'harbordental.com' },
  { name: 'Kite & Key Legal', domain: 'kitekeylegal.com' },
  { name: 'Larkspur Consulting', domain: 'larkspur.consulting' },
  { name: 'Fernhill Architects', domain: 'fernhill.design' },
  { name: 'Copperline Media', domain: 'copperline.media' },
];
const PERSONAL_DOMAINS = ['gmail.com', 'outlook.com', 'fastmail.com', 'proton.me'];

const FIRST_NAMES = [
  'Amara', 'Ben', 'Chloe', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiroshi', 'Isabel', 'Jonas',
  'Keira', 'Luca', 'Maya', 'Nikhil', 'Olivia', 'Pedro', 'Quinn', 'Rosa', 'Samuel', 'Tara',
  'Umar', 'Vera', 'Wes', 'Ximena', 'Yusuf', 'Zoe', 'Aiden', 'Bianca', 'Caleb', 'Daria',
  'Emeka', 'Freya', 'Gabriel', 'Hana', 'Ivan', 'Julia', 'Kofi', 'Leah', 'Mateo', 'Nora',
  'Oscar', 'Priya', 'Rafael', 'Sofia', 'Tomas', 'Uma', 'Victor', 'Wren', 'Yara', 'Zane',
];
const LAST_NAMES = [
  'Okafor', 'Lindqvist', 'Moreau', 'Petrov', 'Garcia', 'Haddad', 'Kim', 'Tanaka', 'Rossi', 'Weber',
  'Nguyen', 'Bianchi', 'Patel', 'Raman', 'Brooks', 'Silva', 'Murphy', 'Alvarez', 'Cohen', 'Singh',
  'Farouk', 'Novak', 'Harper', 'Castillo', 'Demir', 'Fischer', 'Walsh', 'Conti', 'Mensah', 'Ivanova',
  'Eze', 'Larsen', 'Dubois', 'Sato', 'Kowalski', 'Schmidt', 'Asante', 'Friedman', 'Ortega', 'Bergstrom',
  'Reyes', 'Sharma', 'Costa', 'Marquez', 'Horvat', 'Iyer', 'Laurent', 'Whitaker', 'Haddadi', 'Quinlan',
];
const TITLES = [
  'VP of Sales', 'Head of Operations', 'CTO', 'Procurement Manager', 'Marketing Director', 'Founder',
  'Office Manager', 'Engineering Manager', 'CFO', 'Revenue Operations Lead', 'Product Manager', 'COO',
];
const STATUS_WEIGHTS = [['lead', 40], ['prospect', 30], ['customer', 22], ['churned', 8]] as const;

const LISTS = ['Newsletter subscribers', 'Webinar attendees', 'Key accounts'];

const DEAL_PRODUCTS = [
  'Annual platform licence', 'Onboarding package', 'Analytics add-on', 'Enterprise upgrade',
  'Pilot project', 'Support renewal', 'Seat expansion', 'Data migration',
];
/** Stage of each seeded deal, and for closed ones how many days ago they closed. */
const DEAL_PLAN: readonly { stage: string; closedDaysAgo?: number }[] = [
  ...['prospecting', 'prospecting', 'qualification', 'prospecting', 'qualification', 'prospecting', 'qualification', 'prospecting'].map((stage) => ({ stage })),
  ...['qualification', 'qualification', 'proposal', 'proposal', 'proposal', 'proposal', 'negotiation', 'negotiation', 'negotiation'].map((stage) => ({ stage })),
  ...[2, 5, 18, 45, 80].map((closedDaysAgo) => ({ stage: 'closed_won', closedDaysAgo })),
  ...[4, 26, 70].map((closedDaysAgo) => ({ stage: 'closed_lost', closedDaysAgo })),
];
const OPEN_STAGE_ORDER = ['prospecting', 'qualification', 'proposal', 'negotiation'];

interface SeedSequence {
  name: string;
  description: string;
  status: SequenceStatus;
  /** When a paused or archived sequence stopped sending. */
  stoppedDaysAgo?: number;
  steps: SequenceStep[];
  enrolments: number;
  audience: readonly ContactStatus[];
}

const SEQUENCES: SeedSequence[] = [
  {
    name: 'Inbound lead nurture',
    description: 'Eleven touches over two months for leads from the website.',
    status: 'active',
    steps: [
      { day: 0, channel: 'email', subject: 'Thanks for your interest in Brightline' },
      { day: 2, channel: 'email', subject: 'A quick question about your reporting goals' },
      { day: 5, channel: 'email', subject: 'How Acme Robotics cut month-end reporting in half' },
      { day: 7, channel: 'call', subject: 'Intro call' },
      { day: 10, channel: 'email', subject: 'Your seat at our forecasting workshop' },
      { day: 14, channel: 'email', subject: 'Pricing that grows with your team' },
      { day: 21, channel: 'email', subject: 'Three dashboards our customers love' },
      { day: 28, channel: 'email', subject: 'Your questions, answered by our founders' },
      { day: 35, channel: 'email', subject: 'Is now a better time?' },
      { day: 45, channel: 'email', subject: 'A template for your next board report' },
      { day: 60, channel: 'email', subject: 'Should I close your file?' },
    ],
    enrolments: 14,
    audience: ['lead', 'prospect'],
  },
  {
    name: 'Post-demo follow-up',
    description: 'Keeps momentum after a product demo.',
    status: 'active',
    steps: [
      { day: 0, channel: 'email', subject: 'Recap and next steps from our demo' },
      { day: 2, channel: 'task', subject: 'Send a tailored proposal' },
      { day: 3, channel: 'email', subject: 'Answers to the questions from the demo' },
      { day: 7, channel: 'call', subject: 'Check-in call' },
      { day: 10, channel: 'email', subject: 'Customer story: Globex Logistics' },
      { day: 14, channel: 'email', subject: 'Ready to start a pilot?' },
      { day: 21, channel: 'email', subject: 'What a pilot looks like, week by week' },
      { day: 28, channel: 'email', subject: 'Last note about the pilot' },
    ],
    enrolments: 10,
    audience: ['prospect', 'customer'],
  },
  {
    name: 'Win back churned customers',
    description: 'Re-opens the conversation with former customers.',
    status: 'paused',
    stoppedDaysAgo: 20,
    steps: [
      { day: 0, channel: 'email', subject: "We've changed a lot since you left" },
      { day: 5, channel: 'email', subject: "What's new in Brightline this quarter" },
      { day: 12, channel: 'call', subject: 'Personal check-in' },
      { day: 20, channel: 'email', subject: 'An offer to come back' },
      { day: 30, channel: 'email', subject: 'Closing the loop' },
    ],
    enrolments: 4,
    audience: ['churned'],
  },
  {
    name: 'Webinar invite: Forecasting 101',
    description: 'Invitations and follow-up for the spring forecasting webinar.',
    status: 'archived',
    stoppedDaysAgo: 40,
    steps: [
      { day: 0, channel: 'email', subject: "You're invited: Forecasting 101" },
      { day: 5, channel: 'email', subject: 'Reminder: Forecasting 101 is next week' },
      { day: 8, channel: 'email', subject: 'Starting in one hour: Forecasting 101' },
      { day: 9, channel: 'email', subject: 'Recording and slides from Forecasting 101' },
    ],
    enrolments: 9,
    audience: CONTACT_STATUSES,
  },
];

const TASK_TITLES: readonly ((contact: SeedContact) => string)[] = [
  (contact) => `Call ${contact.firstName} about next quarter's plans`,
  (contact) => `Send pricing sheet to ${contact.firstName}`,
  (contact) => `Prepare demo for ${contact.company ?? contact.firstName}`,
  (contact) => `Review contract redlines from ${contact.company ?? contact.firstName}`,
  (contact) => `Book onboarding kickoff with ${contact.firstName}`,
  (contact) => `Share case study with ${contact.firstName}`,
  (contact) => `Confirm budget owner at ${contact.company ?? 'their team'}`,
  (contact) => `Follow up on ${contact.firstName}'s security questionnaire`,
];
const NOTE_BODIES: readonly ((contact: SeedContact) => string)[] = [
  (contact) => `Intro call with ${contact.firstName}: reporting takes two days every month; interested in automating it.`,
  (contact) => `${contact.firstName} asked for SSO and audit logs before a pilot. Sent the security overview.`,
  () => 'Budget is approved for next quarter; procurement needs two quotes.',
  (contact) => `Met ${contact.firstName} at the regional meetup. Wants a demo for the ops team.`,
  () => 'Pricing feedback: per-seat model is fine, annual prepay preferred.',
  (contact) => `${contact.firstName} is moving teams next month; ask for an introduction to the successor.`,
  () => 'Left a voicemail; will try again Thursday.',
  () => 'Demo went well. Main objection: migration effort from spreadsheets.',
  (contact) => `${contact.firstName} replied that timing is bad until the reorg settles.`,
  () => 'Signed the order form; kickoff to be scheduled.',
];

interface SeedContact {
  id: string;
  name: string;
  firstName: string;
  company: string | null;
  accountId: string | null;
  status: ContactStatus;
  createdMs: number;
}

interface SeedAccount {
  id: string;
  name: string;
  domain: string;
}

interface SeedDeal {
  id: string;
  contactId: string | null;
}

/** The seed's shared state: the store, the one random stream, and the clock it spreads data back from. */
interface SeedContext {
  store: Store;
  random: SeededRandom;
  nowMs: number;
  /** ISO time of `ms`, never later than now. */
  iso(ms: number): string;
  daysAgo(days: number): number;
  id(prefix: IdPrefix): string;
}

/**
 * Fills a new database with a realistic workspace spread over the last ~120 days before now():
 * every list, filter, analytics period and AI feature has something to show.
 */
export function seedDemoData(store: Store): void {
  const random = new SeededRandom(SEED);
  const nowMs = store.now().getTime();
  const context: SeedContext = {
    store,
    random,
    nowMs,
    iso: (ms) => new Date(Math.min(ms, nowMs)).toISOString(),
    daysAgo: (days) => nowMs - days * DAY_MS,
    id: (prefix) => newId(prefix, random.index),
  };
  // The order matters: every step draws from the same random stream.
  const accounts = seedAccounts(context);
  const listIds = seedLists(context);
  const contacts = seedContacts(context, accounts);
  seedListMembers(context, contacts, listIds);
  const deals = seedDeals(context, accounts, contacts);
  seedSequences(context, contacts);
  seedTasks(context, contacts, deals);
  seedNotes(context, contacts);
  seedSuggestions(store, contacts);
}

function contactsBefore(contacts: readonly SeedContact[], ms: number, accountId?: string): SeedContact[] {
  return contacts.filter((contact) => contact.createdMs < ms && (accountId === undefined || contact.accountId === accountId));
}

function seedAccounts({ store, iso, daysAgo, id }: SeedContext): SeedAccount[] {
  return ACCOUNTS.map((account, index) => {
    const accountId = id('acc');
    const created = iso(daysAgo(121 - index * 0.4));
    store.run(
      'INSERT INTO accounts (id, name, domain, industry, employees, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      accountId,
      account.name,
      account.domain,
      account.industry,
      account.employees,
      created,
      created,
    );
    return { id: accountId, name: account.name, domain: account.domain };
  });
}

function seedLists({ store, iso, daysAgo, id }: SeedContext): string[] {
  return LISTS.map((name) => {
    const listId = id('list');
    store.run('INSERT INTO lists (id, name, created_at) VALUES (?, ?, ?)', listId, name, iso(daysAgo(122)));
    return listId;
  });
}

function seedContacts({ store, random, iso, daysAgo, id }: SeedContext, accounts: readonly SeedAccount[]): SeedContact[] {
  const lastNames = random.shuffle(LAST_NAMES);
  return FIRST_NAMES.map((firstName, index) => {
    const lastName = lastNames[index];
    // The first fifteen give every account a contact; later ones join an account or work elsewhere.
    const account = index < accounts.length ? accounts[index] : random.chance(0.55) ? random.pick(accounts) : undefined;
    const independent = account || random.chance(0.4) ? undefined : random.pick(INDEPENDENT_COMPANIES);
    const company = account?.name ?? independent?.name ?? null;
    const domain = account?.domain ?? independent?.domain ?? random.pick(PERSONAL_DOMAINS);
    // Denser towards now, so the 7-day window has new contacts too.
    const createdMs = daysAgo(118 * (1 - index / FIRST_NAMES.length) ** 1.4) - random.between(0, 6) * HOUR_MS;
    const contact: SeedContact = {
      id: id('con'),
      name: `${firstName} ${lastName}`,
      firstName,
      company,
      accountId: account?.id ?? null,
      status: random.weighted(STATUS_WEIGHTS),
      createdMs,
    };
    store.run(
      `INSERT INTO contacts (id, name, email, company, phone, title, status, account_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      contact.id,
      contact.name,
      `${firstName}.${lastName}@${domain}`.toLowerCase(),
      company,
      random.chance(0.8) ? `+1 415-555-01${String(index).padStart(2, '0')}` : null,
      company ? random.pick(TITLES) : null,
      contact.status,
      contact.accountId,
      iso(createdMs),
      iso(createdMs),
    );
    return contact;
  });
}

function seedListMembers({ store, random }: SeedContext, contacts: readonly SeedContact[], listIds: readonly string[]): void {
  const [newsletter, webinar, keyAccounts] = listIds;
  for (const contact of contacts) {
    const memberships = [
      random.chance(0.4) ? newsletter : undefined,
      random.chance(0.25) ? webinar : undefined,
      contact.status === 'customer' && contact.accountId ? keyAccounts : undefined,
    ];
    for (const listId of memberships) {
      if (listId) store.run('INSERT INTO list_members (list_id, contact_id) VALUES (?, ?)', listId, contact.id);
    }
  }
}

function seedDeals({ store, random, nowMs, iso, daysAgo, id }: SeedContext, accounts: readonly SeedAccount[], contacts: readonly SeedContact[]): SeedDeal[] {
  return DEAL_PLAN.map((plan, index) => {
    const account = index < accounts.length ? accounts[index] : random.pick(accounts);
    const closedMs = plan.closedDaysAgo === undefined ? undefined : daysAgo(plan.closedDaysAgo) - random.between(1, 8) * HOUR_MS;
    // The first open deals are days old, so recent periods show new deals.
    const createdDaysAgo =
      plan.closedDaysAgo !== undefined
        ? Math.min(plan.closedDaysAgo + random.between(14, 50), 115)
        : index < 3
          ? [1.5, 4, 6][index]
          : random.between(8, 100);
    const createdMs = daysAgo(createdDaysAgo);
    const accountContacts = contactsBefore(contacts, createdMs, account.id);
    const pool = accountContacts.length > 0 ? accountContacts : contactsBefore(contacts, createdMs);
    const contact = pool.length > 0 ? random.pick(pool) : undefined;
    const dealId = id('deal');
    const amount = Math.round(random.between(6_000, 160_000) / 500) * 500;
    const closeDate = utcDate(new Date(closedMs ?? expectedCloseMs(plan.stage, createdMs, random.between(30, 120), nowMs)));
    store.run(
      `INSERT INTO deals (id, name, amount, currency, stage, account_id, contact_id, close_date, created_at, updated_at)
       VALUES (?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?)`,
      dealId,
      `${account.name}: ${random.pick(DEAL_PRODUCTS)}`,
      amount,
      plan.stage,
      account.id,
      contact?.id ?? null,
      closeDate,
      iso(createdMs),
      iso(closedMs ?? createdMs),
    );

    // Walk the deal through the stages before its current one, spacing the moves evenly.
    const path =
      plan.stage === 'closed_won'
        ? [...OPEN_STAGE_ORDER, 'closed_won']
        : plan.stage === 'closed_lost'
          ? [...OPEN_STAGE_ORDER.slice(0, 1 + random.index(OPEN_STAGE_ORDER.length)), 'closed_lost']
          : OPEN_STAGE_ORDER.slice(0, OPEN_STAGE_ORDER.indexOf(plan.stage) + 1);
    const lastMoveMs = closedMs ?? createdMs + random.between(0.2, 0.95) * (nowMs - createdMs);
    for (let step = 1; step < path.length; step++) {
      const movedMs = createdMs + ((lastMoveMs - createdMs) * step) / (path.length - 1);
      store.run(
        `INSERT INTO deal_activities (id, deal_id, type, from_stage, to_stage, created_at) VALUES (?, ?, 'stage_change', ?, ?, ?)`,
        id('act'),
        dealId,
        path[step - 1],
        path[step],
        iso(movedMs),
      );
    }
    if (path.length > 1) store.run('UPDATE deals SET updated_at = ? WHERE id = ?', iso(lastMoveMs), dealId);
    return { id: dealId, contactId: contact?.id ?? null };
  });
}

/** Deals in the last open stages that are not late yet close within three weeks, so the next two (crm status) have some. */
const CLOSING_STAGES = new Set(['proposal', 'negotiation']);

/** An open deal's expected close: `days` (30 to 120) after it was created, or, late in the pipeline and still ahead, 2 to 20 days from now. */
function expectedCloseMs(stage: string, createdMs: number, days: number, nowMs: number): number {
  const closeMs = createdMs + days * DAY_MS;
  return CLOSING_STAGES.has(stage) && closeMs > nowMs ? nowMs + (2 + (days - 30) / 5) * DAY_MS : closeMs;
}

function seedSequences({ store, random, nowMs, iso, daysAgo, id }: SeedContext, contacts: readonly SeedContact[]): void {
  for (const [index, sequence] of SEQUENCES.entries()) {
    const sequenceId = id('seq');
    const createdMs = daysAgo(116 - index * 2);
    const stoppedMs = sequence.stoppedDaysAgo === undefined ? nowMs : daysAgo(sequence.stoppedDaysAgo);
    store.run(
      'INSERT INTO sequences (id, name, description, status, steps, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      sequenceId,
      sequence.name,
      sequence.description,
      sequence.status,
      JSON.stringify(sequence.steps),
      iso(createdMs),
      iso(sequence.stoppedDaysAgo === undefined ? createdMs : stoppedMs),
    );
    const lastStepDay = Math.max(...sequence.steps.map((step) => step.day));
    // Drawn from the longer-standing contacts, who have had time to go through a sequence.
    const audience = random
      .shuffle(contactsBefore(contacts, stoppedMs - DAY_MS).filter((contact) => sequence.audience.includes(contact.status)))
      .slice(0, sequence.enrolments * 2)
      .sort((a, b) => a.createdMs - b.createdMs)
      .slice(0, sequence.enrolments);
    for (const contact of audience) {
      const earliestMs = Math.max(contact.createdMs, createdMs);
      const enrolledMs = random.between(earliestMs, stoppedMs - HOUR_MS);
      const finished = enrolledMs + lastStepDay * DAY_MS < stoppedMs;
      store.run(
        'INSERT INTO enrollments (id, contact_id, sequence_id, status, enrolled_at) VALUES (?, ?, ?, ?, ?)',
        id('enr'),
        contact.id,
        sequenceId,
        finished ? 'completed' : 'active',
        iso(enrolledMs),
      );
      for (const step of sequence.steps) {
        const sentMs = enrolledMs + step.day * DAY_MS + random.between(0.5, 9) * HOUR_MS;
        if (step.channel !== 'email' || sentMs >= stoppedMs) continue;
        const openedMs = random.chance(0.55) ? sentMs + random.between(0.3, 30) * HOUR_MS : undefined;
        const repliedMs = openedMs !== undefined && random.chance(0.22) ? openedMs + random.between(0.5, 48) * HOUR_MS : undefined;
        store.run(
          'INSERT INTO emails (id, contact_id, sequence_id, subject, sent_at, opened_at, replied_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          id('eml'),
          contact.id,
          sequenceId,
          step.subject,
          iso(sentMs),
          openedMs !== undefined && openedMs < nowMs ? iso(openedMs) : null,
          repliedMs !== undefined && repliedMs < nowMs ? iso(repliedMs) : null,
        );
      }
    }
  }
}

function seedTasks({ store, random, nowMs, iso, daysAgo, id }: SeedContext, contacts: readonly SeedContact[], deals: readonly SeedDeal[]): void {
  for (let index = 0; index < 40; index++) {
    const createdMs = daysAgo(60 * (1 - index / 40) ** 1.2 + random.between(0, 0.5));
    const contact = random.pick(contactsBefore(contacts, createdMs));
    const contactDeals = deals.filter((deal) => deal.contactId === contact.id);
    const completedMs = random.chance(0.45) ? random.between(createdMs, nowMs) : undefined;
    // Completed tasks were due around their completion; of the open ones about a quarter are overdue.
    const dueMs =
      completedMs !== undefined
        ? completedMs + random.between(-3, 5) * DAY_MS
        : random.chance(0.25)
          ? Math.max(createdMs + DAY_MS, nowMs - random.between(1, 20) * DAY_MS)
          : nowMs + random.between(0, 21) * DAY_MS;
    store.run(
      `INSERT INTO tasks (id, title, description, status, priority, due_date, contact_id, deal_id, completed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id('task'),
      random.pick(TASK_TITLES)(contact),
      random.chance(0.4) ? 'Agreed on the last call; see the notes on the contact.' : null,
      completedMs === undefined ? 'open' : 'completed',
      random.weighted([['low', 20], ['normal', 55], ['high', 25]] as const),
      utcDate(new Date(dueMs)),
      contact.id,
      contactDeals.length > 0 && random.chance(0.6) ? random.pick(contactDeals).id : null,
      completedMs === undefined ? null : iso(completedMs),
      iso(createdMs),
      iso(completedMs ?? createdMs),
    );
  }
}

function seedNotes({ store, random, nowMs, iso, id }: SeedContext, contacts: readonly SeedContact[]): void {
  for (let index = 0; index < 60; index++) {
    const contact = random.pick(contacts);
    // Skewed towards recent days: most notes are about current conversations.
    const createdMs = contact.createdMs + (nowMs - contact.createdMs) * random.next() ** 0.6;
    store.run(
      'INSERT INTO notes (id, contact_id, body, created_at) VALUES (?, ?, ?, ?)',
      id('note'),
      contact.id,
      random.pick(NOTE_BODIES)(contact),
      iso(createdMs),
    );
  }
}

/** Scores every contact as an agent run would, then files a handful of pending suggestions of each type. */
function seedSuggestions(store: Store, contacts: readonly SeedContact[]): void {
  const clock = clockOf(store);
  const scores = contacts.map((contact) => scoreContact(store, contact.id, clock)).filter((score): score is ContactScore => score !== undefined);
  const suggested = scores
    .filter((score) => score.recommendation.urgent)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
  for (const score of suggested) suggestNextAction(store, score, clock);

  const latestNote = store.get<{ contact_id: string; body: string; created_at: string; name: string }>(
    `SELECT n.contact_id, n.body, n.created_at, c.name FROM notes n JOIN contacts c ON c.id = n.contact_id
     WHERE n.contact_id NOT IN (SELECT value FROM json_each(?)) ORDER BY n.created_at DESC LIMIT 1`,
    JSON.stringify(suggested.map((score) => score.contact_id)),
  );
  if (latestNote) {
    const followUp = {
      type: 'follow_up',
      contactId: latestNote.contact_id,
      dealId: null,
      title: `Follow up with ${latestNote.name} after your last conversation`,
      reason: `Your note from ${latestNote.created_at.slice(0, 10)} says: "${latestNote.body}"`,
      action: { type: 'create_task', title: `Send ${latestNote.name} a recap of your last conversation`, due_date: utcDate(new Date(clock.nowMs + DAY_MS)) },
    } as const;
    fileSuggestion(store, followUp, clock);
  }

  for (const risk of findDealRisks(store, clock).slice(0, 2)) fileSuggestion(store, risk, clock);
  store.setMeta('agent_last_run', clock.now);
}
