import { ApiError, Code, failedPrecondition } from '../../../errors.ts';
import { parseCron } from '../cron.ts';
import type { PipelineStateRow } from '../pps-store.ts';
import type { RunnerContext } from './runner-context.ts';
import { inputLeaves, type CronInputSpec, type PipelineSpec } from '../spec.ts';

/** Cron inputs: a timer per cron input of each pipeline, whose ticks commit to its repo. */
export class CronSchedule {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly c: RunnerContext) {}

  /** Stops every timer. */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  scheduleCrons(state: PipelineStateRow): void {
    this.clearCrons(state.project, state.name);
    if (state.stopped || this.c.isClosed()) return;
    let spec: PipelineSpec;
    try {
      spec = this.c.spec(state.project, state.name);
    } catch {
      return;
    }
    for (const leaf of inputLeaves(spec.input)) {
      if (leaf.kind !== 'cron') continue;
      const schedule = parseCron(leaf.spec);
      const key = `${state.project}/${state.name}/${leaf.name}`;
      const arm = () => {
        const delay = Math.max(0, schedule.next(Date.now()) - Date.now());
        const timer = setTimeout(
          () => {
            if (this.c.isClosed()) return;
            void this.tick(leaf, state.project, state.name).catch((error: unknown) =>
              console.error('pps: cron tick failed', error),
            );
            arm();
          },
          Math.min(delay, 2 ** 31 - 1),
        );
        timer.unref();
        this.timers.set(key, timer);
      };
      arm();
    }
  }

  clearCrons(project: string, name: string): void {
    for (const [key, timer] of this.timers) {
      if (key.startsWith(`${project}/${name}/`)) {
        clearTimeout(timer);
        this.timers.delete(key);
      }
    }
  }

  /**
   * With roles on: why the pipeline's creator may not write its cron input's repo now (a tick
   * writes with the creator's authority), or null.
   */
  private tickDenied(leaf: CronInputSpec, project: string, pipeline: string): string | null {
    if (!this.c.authority) return null;
    const { pfs, store } = this.c.o;
    const state = store.findState(project, pipeline);
    const specRepo = pfs.findRepo({ project, name: pipeline, type: 'spec' });
    const version = state ? store.version(project, pipeline, state.version) : undefined;
    const specCommit =
      specRepo && version ? pfs.findCommit(specRepo, version.spec_commit_id) : undefined;
    return this.c.authority({
      project,
      pipeline,
      creator: specCommit?.created_by ?? '',
      inputs: [],
      writes: [{ project: leaf.project, repo: leaf.repo }],
      output: false,
    });
  }

  /**
   * A cron tick: a commit with a file named by the time (all earlier ones removed if overwrite).
   * Refused (7, and nothing written) when the pipeline's creator may no longer write the repo.
   */
  async tick(leaf: CronInputSpec, project: string, pipeline: string): Promise<void> {
    const denied = this.tickDenied(leaf, project, pipeline);
    if (denied) throw new ApiError(Code.PERMISSION_DENIED, denied);
    const repo = this.c.o.pfs.getRepo({ project: leaf.project, name: leaf.repo, type: 'user' });
    const time = new Date().toISOString();
    const blob = await this.c.o.blobs.writeBytes(Buffer.from(''));
    this.c.o.pfs.landCommit(
      repo,
      'master',
      `cron tick ${time}`,
      [{ path: `/${time}`, hash: blob.hash, sizeBytes: 0 }],
      leaf.overwrite ? ['/'] : [],
    );
  }

  async runCron(project: string, name: string): Promise<void> {
    const spec = this.c.spec(project, name);
    const crons = inputLeaves(spec.input).filter(
      (leaf): leaf is CronInputSpec => leaf.kind === 'cron',
    );
    if (crons.length === 0) throw failedPrecondition(`pipeline ${name} has no cron input`);
    for (const leaf of crons) await this.tick(leaf, project, name);
  }
}
