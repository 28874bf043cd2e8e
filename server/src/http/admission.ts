import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, Code } from '../errors.ts';
import { sendError } from './errors.ts';

/**
 * Admission control: reads start a few at a time, so writes (and /healthz) never queue behind
 * hundreds of them. Every step of a request — parsing, checks, the handler, each await — waits
 * its turn on the one event loop; with 200 readers in the loop at once, a ModifyFile's dozen
 * steps each waited behind all of them (its p50 was 9 s). A read now takes one of a few permits
 * before it runs, in arrival order, and gives it back when its answer is written — or after a
 * short hold at most, so a long stream (a follow, a big download) never blocks the rest. Writes,
 * sign-in, uploads and /healthz take none.
 */

/** Reads running at once (each holds a permit). */
export const READ_PERMITS = 4;
/** The longest a read holds its permit (it goes on without one after). */
export const PERMIT_HOLD_MS = 25;
/** Reads waiting beyond this many are refused (14) rather than queued. */
export const MAX_WAITING = 20_000;

/** Method names of the API that only read (pfs, pps, auth, trials…). */
const READ_METHOD =
  /^(List|Inspect|Glob|Walk|Get|Subscribe|Diff|Find|Count|WhoAmI|Authorize|ReposSummary|PipelinesSummary|CheckStatus|Fsck)/;

/** Whether a request is a read that waits for a permit. */
export function isAdmittedRead(request: FastifyRequest): boolean {
  const path = request.url.split('?', 1)[0] ?? '';
  if (request.method === 'GET' || request.method === 'HEAD')
    return path.startsWith('/files/') || path.startsWith('/pfs/');
  if (request.method !== 'POST' || !path.startsWith('/api/')) return false;
  const method = path.slice(path.lastIndexOf('/') + 1);
  return READ_METHOD.test(method);
}

/** A counting semaphore whose waiters are served in arrival order. */
export class Permits {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  private head = 0;

  constructor(readonly size: number) {
    this.free = size;
  }

  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** Resolves once a permit is held. */
  acquire(): Promise<void> | undefined {
    if (this.free > 0) {
      this.free--;
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head++] as () => void;
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    this.free = Math.min(this.size, this.free + 1);
  }
}

export function registerAdmissionControl(
  app: FastifyInstance,
  options: { permits?: number; holdMs?: number } = {},
): Permits {
  const permits = new Permits(options.permits ?? READ_PERMITS);
  const holdMs = options.holdMs ?? PERMIT_HOLD_MS;
  app.addHook('onRequest', async (request, reply) => {
    if (!isAdmittedRead(request)) return;
    if (permits.queued >= MAX_WAITING)
      return sendError(
        reply,
        new ApiError(Code.UNAVAILABLE, 'the server is busy: too many reads are waiting'),
      );
    const wait = permits.acquire();
    if (wait) await wait;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      permits.release();
    };
    const timer = setTimeout(release, holdMs);
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  });
  return permits;
}
