/**
 * Sends run events to a governance endpoint: HTTP POST (OpenLineage's HTTP transport: one JSON
 * event per request, optional bearer key) and/or one JSON line per event appended to a file.
 *
 * Lineage never breaks the work it describes: a failed or slow delivery is reported through
 * `onError` and dropped (bounded by `timeoutMs`). `flush()` waits for what is in flight.
 *
 * Grants: an event is only sent when every table it names is visible both to the sink
 * (`visible`, e.g. GRAFT_LINEAGE_GRANTS) and to the caller the event is about; otherwise no
 * event at all, so a governance consumer never learns of a table through graft that it (or the
 * caller) may not see.
 */
import { appendFile } from 'node:fs/promises';
import type { RunEvent } from './events.js';

/** May this table (`<basename of source root>.<name>` as grants see it) appear in an event? */
export type LineageVisibility = (sourceRoot: string, tableName: string) => boolean;

export interface LineageSinkOptions {
  /** POST each event here (e.g. Marquez `http://host:5000/api/v1/lineage`). */
  url?: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Append each event as one JSON line. */
  file?: string;
  /** Per-delivery limit (HTTP). Default 5000 ms. */
  timeoutMs?: number;
  /** The sink's own scope; default: every table. */
  visible?: LineageVisibility;
  onError?: (err: unknown, event: RunEvent) => void;
}

export class LineageEmitter {
  private readonly pending = new Set<Promise<void>>();
  /** Serialises file appends so lines never interleave. */
  private fileQueue: Promise<void> = Promise.resolve();

  constructor(readonly options: LineageSinkOptions) {
    if (!options.url && !options.file) throw new Error('a lineage emitter needs a url or a file');
  }

  /**
   * Queues `events` (all or none) when every table in `tables` is visible to the sink and to
   * `callerVisible`; returns whether they were queued.
   */
  emit(events: RunEvent[], tables: { sourceRoot: string; name: string }[], callerVisible?: LineageVisibility): boolean {
    const ok = tables.every(
      (t) => (this.options.visible?.(t.sourceRoot, t.name) ?? true) && (callerVisible?.(t.sourceRoot, t.name) ?? true),
    );
    if (!ok) return false;
    for (const e of events) {
      const p = this.deliver(e).catch((err: unknown) => this.options.onError?.(err, e));
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    }
    return true;
  }

  private async deliver(event: RunEvent): Promise<void> {
    const body = JSON.stringify(event);
    const tasks: Promise<void>[] = [];
    if (this.options.file) {
      const file = this.options.file;
      this.fileQueue = this.fileQueue.catch(() => {}).then(() => appendFile(file, `${body}\n`, 'utf8'));
      tasks.push(this.fileQueue);
    }
    if (this.options.url) tasks.push(this.post(this.options.url, body));
    const results = await Promise.allSettled(tasks);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async post(url: string, body: string): Promise<void> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
    });
    await res.text().catch(() => '');
    if (!res.ok) throw new Error(`lineage endpoint ${url} answered ${res.status}`);
  }

  /** Waits until every queued event was delivered or gave up. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
