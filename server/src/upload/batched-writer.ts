import type { FileHandle } from 'node:fs/promises';

/** Bytes gathered before one writev (a request body arrives in pieces of 64 KiB or less). */
export const batchBytes = 2 * 1024 * 1024;
/** Well below IOV_MAX (1024), whatever size the pieces have. */
const maxPieces = 256;

/**
 * Writes a stream of small buffers to a file from a position as a few large `writev`s: one write
 * in flight while the next batch fills, so the disk works while bytes arrive. A file write stream
 * instead makes one thread-pool round trip per 64 KiB piece (about a third of an upload's
 * main-thread time); the pieces are not copied here either.
 */
export class BatchedWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly handle: FileHandle,
    private position: number,
  ) {}

  /** Queues `bytes`; waits only when a full batch must wait for the write before it. */
  async write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= batchBytes || this.pending.length >= maxPieces)
      await this.startBatch();
  }

  /** Writes what is queued and waits for every write (throws the first write error). */
  async flush(): Promise<void> {
    if (this.pending.length > 0) await this.startBatch();
    const last = this.inFlight;
    this.inFlight = null;
    await last;
  }

  /** Waits for the write in flight, ignoring its failure (cleanup after an error). */
  async settle(): Promise<void> {
    await this.inFlight?.catch(() => undefined);
    this.inFlight = null;
  }

  private async startBatch(): Promise<void> {
    const before = this.inFlight;
    this.inFlight = null;
    await before;
    const batch = this.pending;
    const at = this.position;
    this.position += this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    const write = writeAll(this.handle, batch, at);
    // Awaited by the next batch or flush; a failure meanwhile must not count as unhandled.
    write.catch(() => undefined);
    this.inFlight = write;
  }
}

/** writev until every byte is written (a regular file may take fewer bytes than asked). */
async function writeAll(handle: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let rest = buffers;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, at);
    at += bytesWritten;
    let skipped = bytesWritten;
    const next: Buffer[] = [];
    for (const buffer of rest) {
      if (skipped >= buffer.length) {
        skipped -= buffer.length;
        continue;
      }
      next.push(skipped > 0 ? buffer.subarray(skipped) : buffer);
      skipped = 0;
    }
    if (bytesWritten === 0 && next.length > 0) throw new Error('writev wrote nothing');
    rest = next;
  }
}
