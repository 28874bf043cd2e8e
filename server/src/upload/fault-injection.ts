import { ApiError, Code } from '../errors.ts';

/**
 * TEST ONLY. Two kinds of injected faults, both off unless their environment variable is set:
 *
 * 1. Crash tests set IVORY_FAULT_KILL_AT to one of these points; the server then kills itself
 *    with SIGKILL there, to prove that no partial upload ever shows up as a finished commit.
 *    - upload-chunk-mid: after writing about half of the bytes of a chunk that is not its
 *      file's first (so they go into a staging file already holding the earlier chunks);
 *    - upload-finish-mid-blobs: after each file's staged bytes moved into the blob store (so
 *      with several files, some have moved and some have not);
 *    - upload-finish-after-blobs: after the blobs are stored, before the SQLite transaction;
 *    - upload-finish-mid-transaction: inside the SQLite transaction, after all its writes.
 *
 * 2. IVORY_FAULT_FAIL_CHUNK=<fileName>:<chunkIndex> makes `POST /upload` answer HTTP 500 for
 *    that one chunk of that file, once (the first time it arrives, in any upload session); the
 *    chunk's bytes are discarded. The upload e2e test uses it to show the modal's error state and
 *    its Retry. The file name is the `fileName` field of the chunk request (the file's base name
 *    as the modal sends it); the last ':' separates it from the index.
 *
 * Never set either variable in production.
 */
export type FaultPoint =
  | 'upload-chunk-mid'
  | 'upload-finish-mid-blobs'
  | 'upload-finish-after-blobs'
  | 'upload-finish-mid-transaction';

export class FaultInjector {
  private failChunk: { fileName: string; index: number } | null;

  constructor(
    private readonly active: string,
    failChunk: string = process.env.IVORY_FAULT_FAIL_CHUNK ?? '',
  ) {
    this.failChunk = parseFailChunk(failChunk);
  }

  /** True when this point is armed (callers decide when "mid" has been reached). */
  armed(point: FaultPoint): boolean {
    return this.active === point;
  }

  crashAt(point: FaultPoint): void {
    if (this.armed(point)) process.kill(process.pid, 'SIGKILL');
  }

  /**
   * Throws the injected HTTP 500 (code 13, INTERNAL) when this is the armed chunk, and disarms it, so the next
   * attempt at the same chunk succeeds.
   */
  failChunkOnce(fileName: string, index: number): void {
    const armed = this.failChunk;
    if (armed && armed.fileName === fileName && armed.index === index) {
      this.failChunk = null;
      throw new ApiError(Code.INTERNAL, `injected fault: chunk ${index} of ${fileName} failed`);
    }
  }
}

/** `name:index` → its parts; '' or a malformed value arms nothing. */
export function parseFailChunk(value: string): { fileName: string; index: number } | null {
  const colon = value.lastIndexOf(':');
  if (colon <= 0) return null;
  const index = value.slice(colon + 1);
  if (!/^\d+$/.test(index)) return null;
  return { fileName: value.slice(0, colon), index: Number(index) };
}
