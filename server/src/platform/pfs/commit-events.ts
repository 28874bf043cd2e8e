import { EventEmitter } from 'node:events';
import type { CommitRow } from './rows.ts';

/** In-process notifications that a commit started or finished (for Subscribe/wait calls). */
export class CommitEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  notify(): void {
    this.emitter.emit('change');
  }

  /** Announces a commit that has just finished (pipelines start jobs on it). */
  finished(commit: CommitRow): void {
    this.emitter.emit('finished', commit);
  }

  /** Calls `listener` synchronously for every commit that finishes. */
  onFinished(listener: (commit: CommitRow) => void): () => void {
    this.emitter.on('finished', listener);
    return () => this.emitter.off('finished', listener);
  }

  /** Resolves at the next change, when the signal aborts, or after `timeoutMs`. */
  next(signal: AbortSignal, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.emitter.off('change', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.emitter.on('change', done);
      signal.addEventListener('abort', done);
    });
  }
}
