import { EventEmitter } from 'node:events';

/** In-process notifications that a commit started or finished (for Subscribe/wait calls). */
export class CommitEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  notify(): void {
    this.emitter.emit('change');
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
