// A service whose contacts list is an array, kept newest first by created_at as the service sorts it
// (clocks that disagree put a new record below others; a record dated in the future stays at the
// head): for where crm watch and crm sync --new stop reading new records (issue 17). Every other
// request is not found. Counts the list's requests.
import type { Transport } from '../../src/transport/types.js';

export interface ScriptedContact {
  id: string;
  name: string;
  created_at: string;
}

export interface ScriptedList {
  transport: Transport;
  /** Requests for the list so far. */
  readonly requests: number;
  /** A new contact created at `minutes` past noon by the service's clock (the next id unless one is given); its id. */
  create(minutes: number, id?: string): string;
  /** Deletes the contact with this id. */
  remove(id: string): void;
  /** The list as it stands, newest first. */
  contacts(): readonly ScriptedContact[];
}

/** When a contact created `minutes` past noon was created. */
export const scriptedAt = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 12, 0) + minutes * 60_000).toISOString();

export function scriptedList(): ScriptedList {
  const contacts: ScriptedContact[] = [];
  let made = 0;
  let requests = 0;
  const sort = () => contacts.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !url.pathname.endsWith('/contacts')) return { status: 404, headers: {}, body: JSON.stringify({ data: null, error: 'Not found' }) };
    requests++;
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const page = contacts.slice(offset, offset + Number(url.searchParams.get('limit') ?? 20));
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { contacts: page, total: contacts.length }, error: null }) };
  };
  return {
    transport,
    get requests() {
      return requests;
    },
    create(minutes, id = `con_${++made}`) {
      contacts.push({ id, name: `Scripted ${id}`, created_at: scriptedAt(minutes) });
      sort();
      return id;
    },
    remove(id) {
      const index = contacts.findIndex((contact) => contact.id === id);
      if (index < 0) throw new Error(`no contact ${id} to remove`);
      contacts.splice(index, 1);
    },
    contacts: () => contacts,
  };
}
