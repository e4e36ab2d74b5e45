// The running server's in-memory copy of the endpoint table, reloaded whenever the store's
// change counter moves (admin commands write from another process).
import type { EndpointTables, WebhookEndpointRecord } from '../../persistence/webhooks.js';
import { listEndpointRecords, readChangeSeq } from '../../persistence/webhooks.js';
import { WebhookError } from './errors.js';
import { parseWebhookUrl } from './url-check.js';

export class EndpointCache {
  private byId = new Map<string, WebhookEndpointRecord>();
  private idByUrl = new Map<string, string>();
  private seq = -1;

  constructor(private readonly tables: EndpointTables) {}

  /** Reloads when the change counter moved; returns whether it did. */
  refreshIfChanged(): boolean {
    const seq = readChangeSeq(this.tables);
    if (seq === this.seq) return false;
    this.seq = seq;
    this.byId.clear();
    this.idByUrl.clear();
    for (const record of listEndpointRecords(this.tables)) this.set(record);
    return true;
  }

  set(record: WebhookEndpointRecord): void {
    this.byId.set(record.id, record);
    this.idByUrl.set(`${record.accountId}\n${record.url}`, record.id);
  }

  delete(id: string): void {
    const record = this.byId.get(id);
    if (record) this.idByUrl.delete(`${record.accountId}\n${record.url}`);
    this.byId.delete(id);
  }

  get(id: string): WebhookEndpointRecord | undefined {
    return this.byId.get(id);
  }

  isActive(id: string): boolean {
    const record = this.byId.get(id);
    return record !== undefined && record.disabledAtMs === null;
  }

  all(): IterableIterator<WebhookEndpointRecord> {
    return this.byId.values();
  }

  byUrl(accountId: string, url: string): WebhookEndpointRecord | undefined {
    const parsed = parseWebhookUrl(url, true);
    if (parsed instanceof WebhookError) return undefined;
    const id = this.idByUrl.get(`${accountId}\n${parsed.href}`);
    return id === undefined ? undefined : this.byId.get(id);
  }
}

/** The secrets that sign at nowMs: the current one, then the previous one within 24 h. */
export function activeSecrets(record: WebhookEndpointRecord, nowMs: number): string[] {
  const previousLive = record.previousSecret !== null &&
    record.previousSecretExpiresAtMs !== null && nowMs < record.previousSecretExpiresAtMs;
  return previousLive ? [record.secret, record.previousSecret as string] : [record.secret];
}
