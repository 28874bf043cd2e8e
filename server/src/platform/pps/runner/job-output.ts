import { statSync } from 'node:fs';
import { open, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { NewFile } from '../../pfs/pfs-store.ts';
import type { CommitRow } from '../../pfs/rows.ts';
import { isOpen } from '../../pfs/rows.ts';
import { fsyncDir } from '../../storage/blob-store.ts';
import type { DatumFile } from '../datums.ts';
import {
  isTerminal,
  type DatumRow,
  type JobRow,
  type JobState,
  type OutputFile,
} from '../pps-store.ts';
import type { RunnerContext } from './runner-context.ts';
import { stageDir } from './worker.ts';

/**
 * pachd's output validation: the message naming a path two datums both wrote, or null. (Its
 * files are the datums' outputs; a datum that writes a path twice writes it once.)
 */
export function outputClash(datums: DatumRow[]): string | null {
  const writer = new Map<string, string>();
  for (const datum of datums) {
    if (datum.state !== 'SUCCESS' && datum.state !== 'SKIPPED') continue;
    for (const file of JSON.parse(datum.output ?? '[]') as OutputFile[]) {
      const other = writer.get(file.path);
      if (other !== undefined && other !== datum.id)
        return `duplicate path output by different datums (${file.path} from ${other} and ${file.path} from ${datum.id})`;
      writer.set(file.path, datum.id);
    }
  }
  return null;
}

/** Outputs of at least this many files are made durable with one filesystem sync. */
const syncWholeFsFrom = 32;

/** Runs `work` over `items`, `limit` at a time. */
async function parallel<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * A job's outputs and its end: successful datums' staged outputs move into the blob store, the
 * output commit finishes with them (or with the error), the job's metadata lands in its meta
 * repo, and the job's folder is removed.
 */
export class JobOutputs {
  /**
   * Whether the blob folders' entries made before this process's last filesystem sync are durable
   * (not known at start: a previous process may have ended between a rename and its sync).
   */
  private blobFoldersSynced = false;

  constructor(private readonly c: RunnerContext) {}

  /**
   * Moves staged outputs of successful datums into the blob store. Their bytes are made durable
   * first (one filesystem sync for many files, else an fsync each), then they are renamed to
   * their content address and the blob folders are synced (the same way): the output commit,
   * written after this, never names a blob that a crash could lose or leave half-written.
   */
  async storeOutputs(job: JobRow, datums: DatumRow[]): Promise<void> {
    const jobDir = this.c.jobDir(job);
    const staged = stageDir(jobDir);
    const toStore = datums.filter((d) => d.state === 'SUCCESS' && d.stored === 0);
    const byHash = new Map<string, string>();
    for (const datum of toStore) {
      for (const file of JSON.parse(datum.output ?? '[]') as OutputFile[])
        if (!byHash.has(file.hash)) byHash.set(file.hash, path.join(staged, file.hash));
    }
    const blobDirs = new Set<string>();
    const toMove: { from: string; hash: string }[] = [];
    for (const [hash, from] of byHash) {
      const target = this.c.o.blobs.pathOf(hash);
      blobDirs.add(path.dirname(target));
      // One synchronous stat each: far cheaper than as many thread-pool round trips.
      if (!statSync(target, { throwIfNoEntry: false })?.isFile()) toMove.push({ from, hash });
    }
    // Every output already stored, and every rename into the blob folders synced (all made by
    // this process, which has synced the filesystem since it started): nothing to sync.
    if (toMove.length === 0 && this.blobFoldersSynced && this.c.o.blobs.landingsSynced()) {
      this.markStored(job, toStore);
      return;
    }
    await this.c.o.blobs.landing(() => this.moveAndSync(jobDir, toMove, blobDirs));
    this.markStored(job, toStore);
  }

  /** Moves staged outputs to their addresses and syncs their bytes and the blob folders. */
  private async moveAndSync(
    jobDir: string,
    toMove: { from: string; hash: string }[],
    blobDirs: Set<string>,
  ): Promise<void> {
    if (toMove.length > 0) {
      const synced = toMove.length >= syncWholeFsFrom && (await this.syncFilesystem(jobDir));
      const made = new Set<string>();
      await parallel(toMove, 8, async (move) => {
        if (!synced) {
          const handle = await open(move.from, 'r');
          try {
            await handle.sync();
          } finally {
            await handle.close();
          }
        }
        const target = this.c.o.blobs.pathOf(move.hash);
        const dir = path.dirname(target);
        if (!made.has(dir)) {
          await mkdir(dir, { recursive: true });
          made.add(dir);
        }
        await rename(move.from, target);
      });
    }
    // The blob folders' entries (the new ones, and any another writer has not synced yet): one
    // filesystem sync for many folders, else an fsync each.
    if (!(blobDirs.size >= syncWholeFsFrom && (await this.syncFilesystem(jobDir))))
      await parallel([...blobDirs], 8, (dir) => fsyncDir(dir));
  }

  /**
   * Marks datums' outputs as stored. Without the WAL fsync: the output commit, written next,
   * syncs it; if it is lost, a restart finds these outputs in the blob store and marks them again.
   */
  private markStored(job: JobRow, toStore: DatumRow[]): void {
    this.c.o.store.unsyncedTransaction(() => {
      for (const datum of toStore) this.c.o.store.updateDatum(job.rowid, datum.id, { stored: 1 });
    });
  }

  /**
   * Marks the work folder as the top of separate folder trees (`chattr +T`), so that ext4 places
   * each job's folder in a block group of its own rather than beside the last jobs' (elsewhere
   * it fails, harmlessly). Without a journal, ext4 skips the inodes freed in the last 30 s one by
   * one when it allocates one: in the group where a finished job's folder was just removed,
   * every file a datum creates would cost a scan over the removed files.
   */
  async spreadJobFolders(): Promise<void> {
    try {
      await mkdir(this.c.workDir, { recursive: true });
      await this.c.launcher.run({
        cmd: ['chattr', '+T', this.c.workDir],
        cwd: this.c.workDir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdin: '',
        timeoutMs: 2_000,
        group: 'sync',
        limit: 4,
      });
    } catch {
      // no work folder yet: the launcher makes it
    }
  }

  /** syncfs(2) on the filesystem of `dir` (through `sync -f`); false if that is not available. */
  async syncFilesystem(dir: string): Promise<boolean> {
    // Whatever was renamed before this sync starts is durable once it succeeds.
    const synced = await this.c.launcher.run({
      cmd: ['sync', '-f', dir],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdin: '',
      timeoutMs: 0,
      group: 'sync',
      limit: 4,
    });
    const ok = synced.error === '' && synced.code === 0;
    if (ok) this.blobFoldersSynced = true;
    return ok;
  }

  /**
   * Ends a job: its output commit finishes (with the files on success, with `error` otherwise).
   * `datums`: its datums when the caller has just read them; `metaWritten`: its metadata blob
   * when the caller has started writing it (from the same datums, state and reason).
   */
  async endJob(
    job: JobRow,
    state: JobState,
    reason: string,
    datums?: DatumRow[],
    metaWritten?: Promise<NewFile>,
  ): Promise<void> {
    const { store, pfs } = this.c.o;
    const current = store.jobByRowid(job.rowid);
    if (!current || isTerminal(current.state)) return;
    const jobDatums = datums ?? store.datums(job.rowid);
    // As pachd validates an output commit: two datums may not write one path.
    if (state === 'JOB_SUCCESS') {
      const clash = outputClash(jobDatums);
      if (clash) {
        state = 'JOB_FAILURE';
        reason = clash;
        metaWritten = undefined; // written for a success: written again
      }
    }
    const meta = await (metaWritten ?? this.writeJobMeta(current, state, reason, jobDatums)).catch(
      (error: unknown) => {
        console.error('pps: could not write job metadata', error);
        return null;
      },
    );
    if (isTerminal(store.jobByRowid(job.rowid)?.state ?? 'JOB_KILLED')) return;
    const output = current.output_commit_rowid
      ? pfs.commitByRowid(current.output_commit_rowid)
      : undefined;
    const finishJob = () => {
      store.updateJob(job.rowid, { state, reason, finished_at: Date.now() });
      store.setLastJobState(job.project, job.pipeline, state);
      if (meta) this.landJobMeta(current, output, meta);
    };
    if (output && isOpen(output)) {
      let files: OutputFile[] = [];
      if (state === 'JOB_SUCCESS') {
        const byPath = new Map<string, OutputFile>();
        for (const datum of jobDatums) {
          if (datum.state !== 'SUCCESS' && datum.state !== 'SKIPPED') continue;
          for (const file of JSON.parse(datum.output ?? '[]') as OutputFile[])
            byPath.set(file.path, file);
        }
        files = [...byPath.values()];
      }
      try {
        pfs.finishCommitWithFiles(
          output,
          files,
          state === 'JOB_SUCCESS' ? '' : reason || state,
          finishJob,
        );
      } catch (error) {
        const message = `could not write the output commit: ${(error as Error).message}`;
        pfs.finishCommitWithFiles(output, [], message, () => {
          store.updateJob(job.rowid, {
            state: 'JOB_FAILURE',
            reason: message,
            finished_at: Date.now(),
          });
          store.setLastJobState(job.project, job.pipeline, 'JOB_FAILURE');
        });
      }
    } else {
      pfs.transaction(finishJob);
    }
    const ended = store.jobByRowid(job.rowid) as JobRow;
    this.c.systemLog(
      ended,
      '',
      `job ${ended.state}${ended.reason ? `: ${ended.reason}` : ''}`,
      true,
    );
    this.c.emitJob(ended);
    this.c.launcher.forget(this.c.jobDir(job));
    await rm(this.c.jobDir(job), { recursive: true, force: true }).catch(() => undefined);
  }

  /** The job's metadata (the job, then every datum with its inputs and outputs) as a blob. */
  async writeJobMeta(
    job: JobRow,
    state: JobState,
    reason: string,
    rows: DatumRow[],
  ): Promise<NewFile> {
    const datums = rows.map((datum) => ({
      id: datum.id,
      state: datum.state,
      reason: datum.reason,
      inputs: (JSON.parse(datum.data) as DatumFile[]).map((f) => ({
        input: f.input,
        path: f.path,
        hash: f.hash,
        sizeBytes: f.sizeBytes,
      })),
      outputs: JSON.parse(datum.output ?? '[]') as OutputFile[],
      stats: JSON.parse(datum.stats || '{}') as unknown,
    }));
    const document = {
      job: {
        project: job.project,
        pipeline: job.pipeline,
        id: job.id,
        pipelineVersion: job.pipeline_version,
        state,
        reason,
        restart: job.restart,
        created: new Date(job.created_at).toISOString(),
        started: job.started_at === null ? null : new Date(job.started_at).toISOString(),
        finished: new Date().toISOString(),
        stats: JSON.parse(job.stats || '{}') as unknown,
      },
      datums,
    };
    const blob = await this.c.o.blobs.writeBytes(
      Buffer.from(JSON.stringify(document, null, 1) + '\n'),
    );
    return { path: '/job.json', hash: blob.hash, sizeBytes: blob.sizeBytes };
  }

  /** The job's commit in the pipeline's meta repo: same ID, same provenance as its output. */
  landJobMeta(job: JobRow, output: CommitRow | undefined, file: NewFile): void {
    const { pfs } = this.c.o;
    const repo = pfs.findRepo({ project: job.project, name: job.pipeline, type: 'meta' });
    if (!repo || pfs.findCommit(repo, job.id)) return;
    const commit = pfs.startCommit(repo, 'master', null, `job ${job.id}`, 'AUTO', job.id);
    if (output) pfs.addProvenance(commit, pfs.directProvenance(output));
    pfs.finishCommitWithFiles(commit, [file], '');
  }
}
