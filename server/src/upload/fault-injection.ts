/**
 * TEST ONLY. Crash tests set IVORY_FAULT_KILL_AT to one of these points; the server then kills
 * itself with SIGKILL there, to prove that no partial upload ever shows up as a finished commit.
 * - upload-chunk-mid: after writing about half of a chunk's bytes to disk;
 * - upload-finish-after-blobs: after the blobs are stored, before the SQLite transaction;
 * - upload-finish-mid-transaction: inside the SQLite transaction, after all its writes.
 */
export type FaultPoint =
  'upload-chunk-mid' | 'upload-finish-after-blobs' | 'upload-finish-mid-transaction';

export class FaultInjector {
  constructor(private readonly active: string) {}

  /** True when this point is armed (callers decide when "mid" has been reached). */
  armed(point: FaultPoint): boolean {
    return this.active === point;
  }

  crashAt(point: FaultPoint): void {
    if (this.armed(point)) process.kill(process.pid, 'SIGKILL');
  }
}
