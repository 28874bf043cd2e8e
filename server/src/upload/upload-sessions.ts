// Chunked upload sessions: start, finish (land every file in one commit) and expiry. The layers
// under UploadSessions: chunk-receiver.ts (receiving chunks), upload-staging.ts (the bytes on
// disk), upload-records.ts (the SQLite rows).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { failedPrecondition, invalidArgument } from '../errors.ts';
import { normalisePath } from '../platform/pfs/file-paths.ts';
import { validateName } from '../platform/pfs/names.ts';
import type { PfsStore } from '../platform/pfs/pfs-store.ts';
import { isOpen } from '../platform/pfs/rows.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { Db } from '../platform/storage/database.ts';
import { partsStagedFile, type LandedCommit, type UploadLander } from './upload-lander.ts';
import { ChunkReceiver } from './chunk-receiver.ts';
import type { FaultInjector } from './fault-injection.ts';
import type { UploadFileRow, UploadRow } from './upload-records.ts';
import { targetPath } from './upload-staging.ts';

export interface UploadStart {
  path: string;
  repo: string;
  branch: string;
  description: string;
  project: string;
  /** The uploads of one group land in one commit (see finish); '' for none. */
  group?: string;
}

const groupPattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Chunked uploads: sessions and chunk bookkeeping in SQLite, bytes staged on disk under
 * <dataDir>/uploads/<uploadId>/<encoded file name>/:
 *
 * - `data`: the file's bytes. Chunks that arrive in order (0, 1, 2, …, the upload modal's
 *   order) are appended to it as they stream in, while a running sha256 of the file is kept in
 *   memory; no other copy is made and nothing is read back.
 * - `<index>`: a chunk that arrived out of order (or after a restart, when the running hash is
 *   gone) waits in a file of its own. The `data` file holds exactly the leading received chunks
 *   that have no such file.
 *
 * `finish` completes each `data` file (appends the waiting chunks; reads `data` back to hash it
 * only when the running hash is not available), fsyncs it once, and renames it into the blob
 * store under its sha256 (same filesystem; the blob folder is fsynced), then lands all files in
 * one commit in one SQLite transaction. A `moved.json` marker, fsynced before the rename, lets a
 * finish that was interrupted after some files moved find them in the blob store. In cluster
 * mode (`lander` set) the staged bytes are streamed to the cluster instead (one ModifyFile).
 */
export class UploadSessions extends ChunkReceiver {
  constructor(
    db: Db,
    private readonly pfs: PfsStore,
    blobs: BlobStore,
    dataDir: string,
    faults: FaultInjector,
    lander: UploadLander | null = null,
  ) {
    super(db, blobs, dataDir, faults, lander);
  }

  async init(): Promise<void> {
    await mkdir(this.uploadsDir, { recursive: true });
  }

  start(request: UploadStart): string {
    validateName('repo', request.repo);
    validateName('branch', request.branch);
    const group = request.group ?? '';
    if (group !== '' && !groupPattern.test(group))
      throw invalidArgument(
        `group must be 1 to 64 letters, digits, "_" or "-", not ${JSON.stringify(group)}`,
      );
    const base = normalisePath(request.path);
    // In cluster mode the repo lives on the cluster, which checks it when the upload lands.
    if (!this.lander) {
      this.pfs.getRepo({ project: request.project, name: request.repo, type: 'user' });
    }
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    this.db.transaction(() => {
      if (group !== '') {
        const other = this.db
          .prepare('SELECT * FROM uploads WHERE upload_group = ? LIMIT 1')
          .get(group) as UploadRow | undefined;
        if (
          other &&
          (other.project !== request.project ||
            other.repo !== request.repo ||
            other.branch !== request.branch)
        )
          throw invalidArgument(
            `upload group ${group} lands in ${other.project}/${other.repo}@${other.branch}, not ${request.project}/${request.repo}@${request.branch}`,
          );
      }
      this.db
        .prepare(
          `INSERT INTO uploads (id, project, repo, branch, path, description, created_at, updated_at,
             upload_group)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          request.project,
          request.repo,
          request.branch,
          base,
          request.description,
          now,
          now,
          group,
        );
    })();
    return id;
  }

  /**
   * Lands every file of the upload in one new finished commit; nothing lands on failure. An
   * upload started with a `group` lands together with every other upload of its group (the
   * sessions one modal upload starts, one per folder): the first finish of the group makes the
   * one commit, the others answer with it. In cluster mode the commit is made on the cluster
   * with the caller's `pachToken`.
   */
  async finish(uploadId: string, description: string, pachToken = ''): Promise<LandedCommit> {
    // A retry whose first answer was lost (or a later finish of a landed group) gets the same
    // commit.
    const landedBefore = this.landedCommit(uploadId);
    if (landedBefore) return { id: landedBefore };
    const upload = this.getUpload(uploadId);
    const members = upload.upload_group
      ? (this.db
          .prepare('SELECT * FROM uploads WHERE upload_group = ? ORDER BY created_at, id')
          .all(upload.upload_group) as UploadRow[])
      : [upload];
    const ids = members.map((member) => member.id);
    if (ids.some((id) => this.finishing.has(id)))
      throw failedPrecondition(`upload ${uploadId} is already finishing`);
    for (const id of ids) this.finishing.add(id);
    const endWrite = this.blobs.beginWrite();
    try {
      // Chunks still streaming in are stopped: from here on finish alone touches the staging.
      const running = ids.flatMap((id) => [...(this.inFlight.get(id) ?? [])]);
      for (const entry of running) entry.cancel();
      await Promise.all(running.map((entry) => entry.done));
      // Every file of every session must be complete; a session of the group that holds no
      // file (its files were removed before they were sent) lands nothing.
      const parts = members.map((member) => ({
        upload: member,
        files: this.completeFiles(member, members.length > 1),
      }));
      if (parts.every((part) => part.files.length === 0))
        throw failedPrecondition(`upload ${uploadId} has no files`);
      const text = description || upload.description;
      const forget = () => {
        const drop = this.db.prepare('DELETE FROM uploads WHERE id = ?');
        for (const id of ids) {
          drop.run(id);
          this.recordFinished(id, landedId);
        }
      };
      let landedId = '';
      if (this.lander) {
        const staged = [];
        for (const part of parts)
          for (const file of part.files)
            staged.push(
              partsStagedFile(
                targetPath(part.upload, file),
                await this.stagedParts(part.upload.id, file.file_name),
              ),
            );
        const landed = await this.lander.land(
          { project: upload.project, repo: upload.repo, branch: upload.branch, description: text },
          staged,
          pachToken,
        );
        landedId = landed.id;
        this.db.transaction(forget)();
        for (const id of ids) await this.dropStaging(id);
        return landed;
      }
      const repo = this.localTarget(upload);
      // Several files at once: their fsyncs (data, marker, folders) overlap instead of queueing.
      const pairs = parts.flatMap((part) => part.files.map((file) => ({ part, file })));
      const landed = await mapLimited(pairs, storeConcurrency, async ({ part, file }) => {
        const entry = await this.storeFile(part.upload, file);
        this.faults.crashAt('upload-finish-mid-blobs');
        return entry;
      });
      this.faults.crashAt('upload-finish-after-blobs');
      // An upload replaces a file, never appends to it: each path is deleted, then written.
      const commit = this.pfs.landCommit(
        repo,
        upload.branch,
        text,
        landed,
        landed.map((file) => file.path),
        (id) => {
          landedId = id;
          forget();
          this.faults.crashAt('upload-finish-mid-transaction');
        },
      );
      for (const id of ids) await this.dropStaging(id);
      return commit;
    } finally {
      endWrite();
      for (const id of ids) this.finishing.delete(id);
    }
  }

  /** Where an upload that has not landed yet will land; null once it landed (or unknown). */
  target(uploadId: string): { project: string; repo: string; branch: string } | null {
    const upload = this.db
      .prepare('SELECT project, repo, branch FROM uploads WHERE id = ?')
      .get(uploadId) as { project: string; repo: string; branch: string } | undefined;
    return upload ?? null;
  }

  /** The commit a finished upload landed in ('' when it has not landed). */
  private landedCommit(uploadId: string): string {
    const found = this.db
      .prepare('SELECT commit_id FROM upload_finished WHERE upload_id = ?')
      .pluck()
      .get(uploadId);
    return typeof found === 'string' ? found : '';
  }

  private completeFiles(upload: UploadRow, emptyAllowed = false): UploadFileRow[] {
    const files = this.db
      .prepare(
        'SELECT file_name, chunk_total FROM upload_files WHERE upload_id = ? ORDER BY file_name',
      )
      .all(upload.id) as UploadFileRow[];
    if (files.length === 0 && !emptyAllowed)
      throw failedPrecondition(`upload ${upload.id} has no files`);
    for (const file of files) {
      const received = this.receivedChunks(upload.id, file.file_name).length;
      if (received !== file.chunk_total) {
        throw failedPrecondition(
          `file ${file.file_name} is incomplete: received ${received} of ${file.chunk_total} chunks`,
        );
      }
    }
    return files;
  }

  private localTarget(upload: UploadRow) {
    const repo = this.pfs.getRepo({ project: upload.project, name: upload.repo, type: 'user' });
    const branch = this.pfs.findBranch(repo, upload.branch);
    const head = branch?.head_rowid ? this.pfs.commitByRowid(branch.head_rowid) : null;
    if (head && isOpen(head)) {
      throw failedPrecondition(
        `branch ${upload.branch} has an open commit ${head.id}; finish it first`,
      );
    }
    return repo;
  }

  /** Removes uploads idle for longer than `ttlMs`, and staging folders without a session. */
  async removeAbandoned(ttlMs: number): Promise<number> {
    const cutoff = Date.now() - ttlMs;
    const expired = this.db
      .prepare('SELECT id FROM uploads WHERE updated_at < ?')
      .pluck()
      .all(cutoff) as string[];
    let removed = 0;
    for (const id of expired) {
      if (this.finishing.has(id) || this.inFlight.has(id)) continue;
      this.db.prepare('DELETE FROM uploads WHERE id = ?').run(id);
      for (const key of this.states.keys()) if (key.startsWith(`${id}\0`)) this.states.delete(key);
      removed++;
    }
    const live = new Set(this.db.prepare('SELECT id FROM uploads').pluck().all() as string[]);
    for (const entry of await readdir(this.uploadsDir)) {
      if (live.has(entry)) continue;
      const entryPath = path.join(this.uploadsDir, entry);
      const info = await stat(entryPath);
      // A folder younger than a minute may belong to an upload that is starting right now.
      if (info.isDirectory() && info.mtimeMs < Date.now() - 60_000) {
        await rm(entryPath, { recursive: true, force: true });
      }
    }
    return removed;
  }
}

/** Files moved into the blob store at once by finish (their fsyncs overlap). */
const storeConcurrency = 8;

/**
 * `fn` over `items`, at most `limit` at once; results in the items' order. After a failure no
 * new item starts, and it throws the first failure only once every started call has settled
 * (finish must not return while a file is still being moved).
 */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
