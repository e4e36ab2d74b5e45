// Webhook endpoints and their signing secrets, plus a change counter that every admin write
// bumps so a running server sees command-line changes within a second.
import type { Database, RootDatabase } from 'lmdb';
import { openTable } from './table.js';

export interface WebhookEndpointRecord {
  /** `we_` + 16 hex. */
  readonly id: string;
  /** The owning account: its API key prefix (`ofk_` + 8 hex). */
  readonly accountId: string;
  /** Normalized (WHATWG) form of the registered URL. */
  readonly url: string;
  /** `whsec_` + 43 base64url characters; the HMAC key is this whole string. */
  readonly secret: string;
  /** The secret before the last rotation, still signing until previousSecretExpiresAtMs. */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAtMs: number | null;
  readonly createdAtMs: number;
  readonly rotatedAtMs: number | null;
  readonly disabledAtMs: number | null;
  /** 'gone': a 410 answer; 'failing': every attempt failed for 5 days. */
  readonly disabledReason: 'gone' | 'failing' | null;
  /** First failed attempt since the last success, or null while it succeeds. */
  readonly failingSinceMs: number | null;
}

export interface EndpointTables {
  readonly root: RootDatabase;
  readonly endpoints: Database<WebhookEndpointRecord, string>;
  readonly meta: Database<number, string>;
}

/** Bound on all endpoints of all accounts (20 per account on the largest plans). */
export const ENDPOINTS_TOTAL_MAX = 100_000;
const CHANGE_SEQ = 'changeSeq';

export function openEndpointTables(root: RootDatabase): EndpointTables {
  return {
    root,
    endpoints: openTable<WebhookEndpointRecord, string>(root, 'webhook_endpoints'),
    meta: openTable<number, string>(root, 'webhook_meta'),
  };
}

/** Reads the change counter from the newest snapshot (other processes write it too). */
export function readChangeSeq(tables: EndpointTables): number {
  tables.root.resetReadTxn();
  return tables.meta.get(CHANGE_SEQ) ?? 0;
}

/** Bumps the counter; call inside a write transaction or on its own after a write. */
export function bumpChangeSeq(tables: EndpointTables): void {
  tables.meta.putSync(CHANGE_SEQ, (tables.meta.get(CHANGE_SEQ) ?? 0) + 1);
}

export function notifyChange(tables: EndpointTables): void {
  tables.root.transactionSync(() => bumpChangeSeq(tables));
}

export function listEndpointRecords(tables: EndpointTables): WebhookEndpointRecord[] {
  tables.root.resetReadTxn();
  const out: WebhookEndpointRecord[] = [];
  for (const { value } of tables.endpoints.getRange({ limit: ENDPOINTS_TOTAL_MAX })) {
    out.push(value);
  }
  return out;
}

export function getEndpointRecord(
  tables: EndpointTables, id: string,
): WebhookEndpointRecord | undefined {
  return tables.endpoints.get(id);
}

/**
 * Read-modify-write of one endpoint inside a synchronous write transaction (lmdb serializes
 * writers across processes, so an admin command and the server never lose each other's update).
 * change returns the new record, or null to delete it, or undefined to leave it as is.
 */
export function updateEndpointRecord(
  tables: EndpointTables, id: string,
  change: (current: WebhookEndpointRecord | undefined) => WebhookEndpointRecord | null | undefined,
): WebhookEndpointRecord | null | undefined {
  return tables.root.transactionSync(() => {
    const next = change(tables.endpoints.get(id));
    if (next === undefined) return undefined;
    if (next === null) tables.endpoints.removeSync(id);
    else {
      if (next.id !== id) throw new Error(`endpoint record id ${next.id} does not match ${id}`);
      tables.endpoints.putSync(id, next);
    }
    bumpChangeSeq(tables);
    return next;
  });
}
