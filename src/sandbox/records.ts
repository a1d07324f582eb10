// What the routes share about stored records: whether one exists (404 or 400 when not), soft delete,
// an update of the given columns, and the UTC date.

import { badRequest, notFound, type Reply, ok } from './http.js';
import type { Store } from './store.js';

/** The resources with their own table and soft delete, and how a message names each. */
const RESOURCES = {
  account: { table: 'accounts', label: 'Account' },
  contact: { table: 'contacts', label: 'Contact' },
  deal: { table: 'deals', label: 'Deal' },
  sequence: { table: 'sequences', label: 'Sequence' },
  task: { table: 'tasks', label: 'Task' },
} as const;

export type ResourceKind = keyof typeof RESOURCES;

export function isLive(store: Store, kind: ResourceKind, id: string): boolean {
  return store.get(`SELECT 1 FROM ${RESOURCES[kind].table} WHERE id = ? AND deleted_at IS NULL`, id) !== undefined;
}

/** 404 unless the resource named in the path exists and is not deleted. */
export function requireLive(store: Store, kind: ResourceKind, id: string): void {
  if (!isLive(store, kind, id)) throw notFound(RESOURCES[kind].label);
}

/** 400 when a body field points at a resource that does not exist (or was deleted). */
export function checkReference(store: Store, kind: ResourceKind, field: string, id: string | null | undefined): void {
  if (id && !isLive(store, kind, id)) throw badRequest(`${field} '${id}' does not match any ${kind}`);
}

export function softDelete(store: Store, kind: ResourceKind, id: string): Reply {
  const now = store.nowIso();
  const { changes } = store.run(
    `UPDATE ${RESOURCES[kind].table} SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`,
    now,
    now,
    id,
  );
  if (changes === 0) throw notFound(RESOURCES[kind].label);
  return ok({ id, deleted: true });
}

/** Sets the given columns (names from the field specs, never from input) and updated_at. */
export function updateRow(store: Store, kind: ResourceKind, id: string, columns: Record<string, unknown>): void {
  const assignments = [...Object.keys(columns), 'updated_at'].map((name) => `${name} = ?`).join(', ');
  store.run(`UPDATE ${RESOURCES[kind].table} SET ${assignments} WHERE id = ?`, ...Object.values(columns), store.nowIso(), id);
}

export function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
