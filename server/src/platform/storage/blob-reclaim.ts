import type { Method, MethodRegistry } from '../platform.ts';
import type { BlobStore } from './blob-store.ts';
import type { Db } from './database.ts';

/** Every hash something in the database still names: files of any commit (open or finished),
 * upload chunks kept for a resumable upload, file-set members, pipeline datums' outputs. */
const referencedSql = `
  SELECT hash FROM files WHERE hash != ''
  UNION SELECT hash FROM upload_chunks
  UNION SELECT hash FROM pfs_file_set_files
  UNION SELECT json_extract(o.value, '$.hash') FROM pps_datums d, json_each(d.output) o
    WHERE d.output IS NOT NULL AND json_valid(d.output)`;

/** A blob written or found this recently is kept even if nothing names it yet. */
const recentMs = 5_000;
/** How long after the last deleting call a sweep starts (calls come in bursts). */
const debounceMs = 300;
/** Sweeps run at least this often even without deleting calls. */
const periodicMs = 10 * 60 * 1000;

/** Calls after which blobs may have lost their last reference (Fsck with `fix` sweeps itself). */
const freeingMethods =
  /\/(Delete\w*|Squash\w*|Drop\w*|ClearCommit|ModifyFile|CreateFileSet|FinishCommit|AddFileSet|RenewFileSet)$/;

export interface ReclaimResult {
  /**
   * Unreferenced blobs found (removed ones included). `recent`: written or looked up since a
   * write still in flight began (or in the last few seconds), so a write may be about to name it.
   */
  unreferenced: { hash: string; removed: boolean; bytes: number; recent: boolean }[];
  bytesFreed: number;
}

/**
 * Deletes blobs nothing references. Crash-safe by order: rows are deleted (and committed) by
 * the calls that drop them, and only afterwards does a sweep unlink bytes no row names, so a
 * crash leaves at worst an unreferenced blob for the next sweep (the server starts one once
 * every reference source is added). A blob is
 * never removed while a commit, upload, file set or datum names it, nor when it was written or
 * looked up since the oldest write still in flight began (or in the last few seconds), since
 * that write may be about to name it (BlobStore.beginWrite / remove).
 */
export class BlobReclaimer {
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private running: Promise<ReclaimResult> | null = null;
  private again = false;
  private readonly periodic: NodeJS.Timeout;
  private closed = false;
  private readonly sources: (() => Promise<Iterable<string>>)[] = [];

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.periodic = setInterval(() => this.schedule(), periodicMs);
    this.periodic.unref();
  }

  /** Adds references kept outside the database (e.g. an upload's moved.json markers). */
  addReferences(source: () => Promise<Iterable<string>>): void {
    this.sources.push(source);
  }

  /**
   * Whether a sweep is due: one scheduled after a call that may have freed blobs, or a retry
   * for blobs kept because they were used recently. A due sweep deletes every blob nothing
   * names that is not in use by then, so until it has run such blobs are on their way out.
   */
  get due(): boolean {
    return this.timer !== null || this.retry !== null || this.again;
  }

  /** Runs a sweep soon (debounced); a call during a sweep runs another after it. */
  schedule(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sweep().catch((error: unknown) => this.log(`blob sweep failed: ${String(error)}`));
    }, debounceMs);
    this.timer.unref();
  }

  /** Wraps the registry's freeing methods so each schedules a sweep when it ends. */
  watch(methods: MethodRegistry): void {
    for (const [name, method] of methods) {
      if (!freeingMethods.test(name)) continue;
      methods.set(name, this.watched(method));
    }
  }

  private watched(method: Method): Method {
    const after = <T>(work: Promise<T>) => work.finally(() => this.schedule());
    switch (method.kind) {
      case 'stream': {
        const handler = method.handler;
        return {
          ...method,
          kind: 'stream',
          handler: (...args) => this.afterStream(handler(...args)),
        };
      }
      case 'unary': {
        const handler = method.handler;
        return { ...method, kind: 'unary', handler: (...args) => after(handler(...args)) };
      }
      case 'clientStream': {
        const handler = method.handler;
        return { ...method, kind: 'clientStream', handler: (...args) => after(handler(...args)) };
      }
    }
  }

  private async *afterStream(source: AsyncIterable<unknown>): AsyncIterable<unknown> {
    try {
      yield* source;
    } finally {
      this.schedule();
    }
  }

  /** Finds unreferenced blobs; removes them unless `dryRun`. One sweep at a time. */
  async sweep(options: { dryRun?: boolean } = {}): Promise<ReclaimResult> {
    while (this.running) await this.running.catch(() => undefined);
    const run = this.sweepOnce(options.dryRun ?? false);
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }

  private async sweepOnce(dryRun: boolean): Promise<ReclaimResult> {
    const now = Date.now();
    const protectedSince = this.blobs.protectedSince(now) - recentMs;
    // Listed first, referenced second: a blob stored after the listing is not a candidate,
    // and a reference made before the query is seen.
    const stored = await this.blobs.list();
    const referenced = new Set(this.db.prepare(referencedSql).pluck().all() as string[]);
    for (const source of this.sources) for (const hash of await source()) referenced.add(hash);
    const result: ReclaimResult = { unreferenced: [], bytesFreed: 0 };
    for (const hash of stored) {
      if (referenced.has(hash)) continue;
      const recent = this.blobs.lastTouched(hash) >= protectedSince;
      const bytes = dryRun ? 0 : await this.blobs.remove(hash, protectedSince);
      result.unreferenced.push({ hash, removed: bytes > 0, bytes, recent });
      result.bytesFreed += bytes;
    }
    this.blobs.forgetTouchesBefore(protectedSince);
    // Unreferenced blobs kept because they were used recently: look again once that passes.
    if (!dryRun && result.unreferenced.some((blob) => !blob.removed)) this.retryLater();
    if (result.bytesFreed > 0)
      this.log(`reclaimed ${result.bytesFreed} bytes in ${result.unreferenced.length} blobs`);
    return result;
  }

  private retryLater(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.schedule();
    }, recentMs + debounceMs);
    this.retry.unref();
  }

  close(): void {
    if (this.retry) clearTimeout(this.retry);
    this.closed = true;
    clearInterval(this.periodic);
    if (this.timer) clearTimeout(this.timer);
  }
}
