import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync, rmSync, writeSync } from 'node:fs';

/**
 * The tokens of a group of shells (a job's, or a pipeline's kept sandboxes'): a FIFO holding
 * `limit` one-byte tokens. A shell reads one before it starts a process and writes it back
 * after, so at most `limit` processes of the group run at once, and the next starts the moment
 * one exits. The launcher holds the FIFO twice: blocking (`fd`, what the shells inherit) and
 * non-blocking (`ctl`, where it puts tokens back or takes them away without ever waiting).
 */
export class TokenGroup {
  readonly fd: number;
  private readonly ctl: number;
  private limit: number;
  /** Tokens still to take away (the limit went down while some were held). */
  private debt = 0;
  /** When a process of the group last exited (as the launcher heard). */
  lastExit = 0;
  private readonly scratch = Buffer.alloc(64);

  /** `fifo`: a path for the FIFO, removed once it is open. */
  constructor(fifo: string, limit: number) {
    const made = spawnSync('mkfifo', ['-m', '0600', fifo]);
    if (made.status !== 0) throw new Error(`cannot make a FIFO: ${String(made.stderr)}`);
    // Read and write: never blocks to open, and never sees an end while this process lives.
    this.fd = openSync(fifo, 'r+');
    this.ctl = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    rmSync(fifo, { force: true });
    this.limit = Math.max(1, limit);
    writeSync(this.ctl, '\n'.repeat(this.limit));
  }

  /**
   * The limit for the group's next job (a group outlives a job when its sandboxes are kept):
   * tokens are added, or taken away (those held by running processes when they come back).
   */
  setLimit(wanted: number): void {
    const limit = Math.max(1, wanted);
    if (limit === this.limit) return;
    if (limit > this.limit) {
      const extra = limit - this.limit;
      const paid = Math.min(this.debt, extra);
      this.debt -= paid;
      if (extra > paid) writeSync(this.ctl, '\n'.repeat(extra - paid));
    } else this.debt += this.limit - limit;
    this.limit = limit;
    this.payDebt();
  }

  /** A process ended and its shell put its token back: one owed is taken away. */
  exited(): void {
    this.lastExit = performance.now();
    this.payDebt();
  }

  /** A shell died holding a token: it goes back (unless one is owed). */
  giveBack(): void {
    if (this.debt > 0) this.debt--;
    else writeSync(this.ctl, '\n');
  }

  close(): void {
    closeSync(this.fd);
    closeSync(this.ctl);
  }

  private payDebt(): void {
    while (this.debt > 0) {
      try {
        const n = readSync(this.ctl, this.scratch, 0, Math.min(this.debt, 64), null);
        if (n <= 0) return;
        this.debt -= n;
      } catch {
        return; // none there now (EAGAIN): they are held
      }
    }
  }
}
