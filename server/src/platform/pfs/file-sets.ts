import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, Code, failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import { pfs_v2 } from '@ivory/api/proto';
import { int64 } from '../wire.ts';
import type { MethodRegistry } from '../platform.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Db } from '../storage/database.ts';
import { safeNumber, typedClientStream, typedUnary } from '../typed-method.ts';
import { createFileSet } from './create-file-set.ts';
import { modifyFileRequestFromJson } from './modify-file.ts';
import { commitRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow } from './rows.ts';

/** A file set lives this long unless the request names a TTL (Pachyderm's default too). */
export const defaultFileSetTtlSeconds = 10 * 60;
/** The longest TTL a file set gets (a renewal can extend it again). */
const maxFileSetTtlSeconds = 7 * 24 * 60 * 60;
/** ShardFileSet thresholds when the request leaves them 0 (Pachyderm's defaults). */
const defaultShardFiles = 1_000_000;
const defaultShardBytes = 1024 * 1024 * 1024;

export interface MemberRow {
  path: string;
  hash: string;
  size_bytes: number;
}

/**
 * File sets: staged, expiring collections of files in the content store. A file set is a row
 * {id (32 hex digits), created_at, expires_at} plus its members {path, hash, size}; members name
 * blobs that commits already hold (members count as references for the blob reclaimer, so a
 * member's bytes stay readable while the set exists). Expired sets are removed lazily, at the start
 * of every file-set call; using an expired or unknown id answers 5.
 *
 * - CreateFileSet (a client stream of ModifyFileRequest) → {fileSetId}: a new set of the files
 *   the stream adds or copies (create-file-set.ts); deleteFile answers 12.
 * - GetFileSet {commit, type} → {fileSetId}: a new set holding the commit's files (type TOTAL),
 *   or only the files added or changed since its parent (DIFF; deletions are not represented).
 * - AddFileSet {commit, fileSetId} → {}: writes the set's files into an open commit (a finished
 *   one → 9), replacing files at the same paths; all or nothing.
 * - RenewFileSet {fileSetId, ttlSeconds} → {}: the set now expires ttlSeconds from now.
 * - ComposeFileSet {fileSetIds, ttlSeconds, compact} → {fileSetId}: a new set with the members of
 *   all the sets, a later set winning for a path present in several; `compact` changes nothing
 *   (sets are stored flat).
 * - ShardFileSet {fileSetId, numFiles, sizeBytes} → {shards: [{lower, upper}]}: path ranges
 *   (lower inclusive, upper exclusive, "" = unbounded) covering the set in path order, a new
 *   shard starting once the current one holds numFiles files or sizeBytes bytes (0 = defaults
 *   1,000,000 files / 1 GiB). The ranges can be passed to GlobFile's pathRange.
 * - CheckStorage {readChunkData, chunkBegin, chunkEnd} → {chunkObjectCount}: counts the blobs
 *   (the embedded platform's chunks) whose sha256, as bytes, lies in [chunkBegin, chunkEnd)
 *   (empty = unbounded). With readChunkData each counted blob is also read and re-hashed; the
 *   first one that no longer matches its name fails the call with 13 (the store is damaged: Fsck
 *   lists the files that use it).
 * TTLs of 0 or less mean the default (10 minutes); at most 7 days.
 */
export function registerFileSetApi(
  methods: MethodRegistry,
  deps: { store: PfsStore; blobs: BlobStore; db: Db },
): void {
  const { store, blobs, db } = deps;
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pfs_v2.API/${name}`, method);

  const sweep = () => db.prepare('DELETE FROM pfs_file_sets WHERE expires_at <= ?').run(Date.now());

  const ttlMs = (seconds: bigint) => {
    const effective =
      seconds > 0n
        ? Number(seconds < maxFileSetTtlSeconds ? seconds : maxFileSetTtlSeconds)
        : defaultFileSetTtlSeconds;
    return effective * 1000;
  };

  function checkedId(id: string, field: string): string {
    if (!id) throw invalidArgument(`${field} is required`);
    const found = db
      .prepare('SELECT id FROM pfs_file_sets WHERE id = ? AND expires_at > ?')
      .pluck()
      .get(id, Date.now());
    if (typeof found !== 'string') throw notFound(`file set ${id} not found (or expired)`);
    return id;
  }

  const members = (id: string): MemberRow[] =>
    db
      .prepare(
        'SELECT path, hash, size_bytes FROM pfs_file_set_files WHERE file_set_id = ? ORDER BY path',
      )
      .all(id) as MemberRow[];

  /** Stores a new set with these members; returns its id. */
  function createSet(files: Iterable<MemberRow>, lifetimeMs: number): string {
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    db.transaction(() => {
      db.prepare('INSERT INTO pfs_file_sets (id, created_at, expires_at) VALUES (?, ?, ?)').run(
        id,
        now,
        now + lifetimeMs,
      );
      const insert = db.prepare(
        `INSERT OR REPLACE INTO pfs_file_set_files (file_set_id, path, hash, size_bytes)
         VALUES (?, ?, ?, ?)`,
      );
      for (const file of files) insert.run(id, file.path, file.hash, file.size_bytes);
    })();
    return id;
  }

  function commitFiles(commit: CommitRow, diff: boolean): MemberRow[] {
    const files = store.allFiles(commit).filter((row) => row.type === 'FILE');
    if (!diff) return files;
    const parent = commit.parent_rowid === null ? null : store.commitByRowid(commit.parent_rowid);
    if (!parent) return files;
    const before = new Map(
      store
        .allFiles(parent)
        .filter((row) => row.type === 'FILE')
        .map((row) => [row.path, row.hash]),
    );
    return files.filter((row) => before.get(row.path) !== row.hash);
  }

  add(
    'CreateFileSet',
    typedClientStream(
      pfs_v2.ModifyFileRequestSchema,
      (requests, signal) => {
        sweep();
        const saveSet = (files: Iterable<MemberRow>) =>
          createSet(files, defaultFileSetTtlSeconds * 1000);
        return createFileSet({ store, blobs, saveSet }, requests, signal);
      },
      { requestFromJson: modifyFileRequestFromJson },
    ),
  );

  add(
    'GetFileSet',
    typedUnary(pfs_v2.GetFileSetRequestSchema, async (req) => {
      sweep();
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      const diff = req.type === pfs_v2.GetFileSetRequest_FileSetType.DIFF;
      return {
        fileSetId: createSet(commitFiles(commit, diff), defaultFileSetTtlSeconds * 1000),
      };
    }),
  );

  add(
    'AddFileSet',
    typedUnary(pfs_v2.AddFileSetRequestSchema, async (req) => {
      sweep();
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      const id = checkedId(req.fileSetId, 'fileSetId');
      if (!isOpen(commit))
        throw failedPrecondition(
          `commit ${commit.id} is finished: file sets can only be added to an open commit`,
        );
      const files = members(id);
      store.transaction(() => {
        for (const file of files)
          store.putFile(commit, { path: file.path, hash: file.hash, sizeBytes: file.size_bytes });
      });
      return {};
    }),
  );

  add(
    'RenewFileSet',
    typedUnary(pfs_v2.RenewFileSetRequestSchema, async (req) => {
      sweep();
      const id = checkedId(req.fileSetId, 'fileSetId');
      db.prepare('UPDATE pfs_file_sets SET expires_at = ? WHERE id = ?').run(
        Date.now() + ttlMs(req.ttlSeconds),
        id,
      );
      return {};
    }),
  );

  add(
    'ComposeFileSet',
    typedUnary(pfs_v2.ComposeFileSetRequestSchema, async (req) => {
      sweep();
      const ids = req.fileSetIds.map((value, i) => checkedId(value, `fileSetIds[${i}]`));
      const composed = new Map<string, MemberRow>();
      for (const id of ids) for (const file of members(id)) composed.set(file.path, file);
      return { fileSetId: createSet(composed.values(), ttlMs(req.ttlSeconds)) };
    }),
  );

  add(
    'ShardFileSet',
    typedUnary(pfs_v2.ShardFileSetRequestSchema, async (req) => {
      sweep();
      const id = checkedId(req.fileSetId, 'fileSetId');
      const maxFiles = safeNumber(req.numFiles, 'numFiles') || defaultShardFiles;
      const maxBytes = safeNumber(req.sizeBytes, 'sizeBytes') || defaultShardBytes;
      if (maxFiles < 0 || maxBytes < 0)
        throw invalidArgument('numFiles and sizeBytes must not be negative');
      const shards: { lower: string; upper: string }[] = [];
      let lower = '';
      let files = 0;
      let bytes = 0;
      for (const file of members(id)) {
        if (files > 0 && (files >= maxFiles || bytes >= maxBytes)) {
          shards.push({ lower, upper: file.path });
          lower = file.path;
          files = 0;
          bytes = 0;
        }
        files += 1;
        bytes += file.size_bytes;
      }
      shards.push({ lower, upper: '' });
      return { shards };
    }),
  );

  add(
    'CheckStorage',
    typedUnary(pfs_v2.CheckStorageRequestSchema, async (req, signal) => {
      const begin = Buffer.from(req.chunkBegin).toString('hex');
      const end = Buffer.from(req.chunkEnd).toString('hex');
      const verify = req.readChunkData;
      let count = 0;
      for (const hash of await listBlobs(blobs)) {
        if (signal.aborted) break;
        if (hash < begin || (end && hash >= end)) continue;
        if (verify && !(await blobs.verify(hash))) {
          throw new ApiError(
            Code.INTERNAL,
            `blob ${hash} is corrupt: its bytes no longer hash to its name (Fsck lists the files that use it)`,
          );
        }
        count += 1;
      }
      return { chunkObjectCount: int64(count) };
    }),
  );
}

/** Every stored blob's hash, sorted. */
async function listBlobs(blobs: BlobStore): Promise<string[]> {
  const hashes: string[] = [];
  for (const prefix of await readdir(blobs.blobsDir)) {
    for (const name of await readdir(path.join(blobs.blobsDir, prefix)))
      if (/^[0-9a-f]{64}$/.test(name)) hashes.push(name);
  }
  return hashes.sort();
}
