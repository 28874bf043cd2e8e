import { toJson } from '@bufbuild/protobuf';
import { AnySchema, EmptySchema } from '@bufbuild/protobuf/wkt';
import { pfs_v2, taskapi } from '@ivory/api/proto';
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import { int64 } from '../wire.ts';
import type { MethodRegistry } from '../platform.ts';
import { jsonRegistry, typedStream, typedUnary } from '../typed-method.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Db } from '../storage/database.ts';
import { packTar } from './file-tar.ts';
import type { PfsMessages } from './pfs-messages.ts';
import { commitRefOf, fileRefOf, projectNameOf, repoRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { NewFile, PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow, type RepoRow, type RepoType } from './rows.ts';

/** GetFileTAR sends at most this many bytes per line. */
const tarChunkBytes = 1024 * 1024;

export interface RepoAdminDeps {
  store: PfsStore;
  blobs: BlobStore;
  db: Db;
  messages: PfsMessages;
  /** Deletes every pipeline (pps), before pfs DeleteAll removes the repos they use. */
  deleteAllPipelines: () => Promise<void>;
}

/**
 * pfs_v2 calls beyond the basic object model: CountRepo, DeleteRepos, CopyRepo, CountProject,
 * ClearCommit, GetFileTAR, DeleteAll, PutCache / GetCache / ClearCache, ListTask.
 *
 * - CountRepo {projects, type} → {count}: repos of those projects (all when empty) of that type
 *   ("" = every type), counted like ListRepo lists them.
 * - CountProject {} → {count}.
 * - DeleteRepos {projects, force, all} → {repos}: the user repos of the projects (or of every
 *   project with `all`); a pipeline's output repo is only deleted with `force` (9 otherwise).
 * - CopyRepo {src, dst} → {}: creates dst (6 if it exists) and, for each branch of src with a
 *   finished head (an open head: its newest finished ancestor), lands one new commit on the dst
 *   branch holding the same files (the blobs are shared, content-addressed). History, commit ids
 *   and provenance are not copied; same-repo branch provenance is.
 * - ClearCommit {commit}: an open commit goes back to its parent's files; finished → 9.
 * - GetFileTAR {file}: a tar of the path (a folder with its subtree), entries named from the repo
 *   root, sent as base64 BytesValue lines of at most 1 MiB.
 * - ActivateAuth: see activate-auth.ts (a no-op: auth is configured with IVORY_OIDC_*).
 * - DeleteAll {}: deletes every pipeline, then every repo (branches, commits, files), and every
 *   project but "default"; cache entries too. Blobs stay on disk.
 * - PutCache {key, value, fileSetIds, tag}: stores value (an Any message, kept as JSON) under
 *   key, replacing an older value; entries are kept until ClearCache {tagPrefix} removes the ones
 *   whose tag starts with the prefix ("" = all). GetCache {key} → {value}, 5 when absent.
 * - ListTask: the embedded platform has no task queue (datums run in-process): streams nothing.
 */
export function registerRepoAdminApi(
  methods: MethodRegistry,
  deps: RepoAdminDeps,
): { deleteAll: () => Promise<void> } {
  const { store, blobs, db, messages } = deps;
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pfs_v2.API/${name}`, method);

  const projectNames = (projects: readonly pfs_v2.Project[]) => projects.map(projectNameOf);

  // ---- counts ---------------------------------------------------------------------------

  add(
    'CountRepo',
    typedUnary(pfs_v2.CountRepoRequestSchema, async (req) => {
      const type = req.type;
      const projects = projectNames(req.projects);
      for (const project of projects) store.getProject(project);
      const repos = store.listRepos({ type: type ? (type as RepoType) : null, projects });
      return { count: int64(repos.length) };
    }),
  );

  add(
    'CountProject',
    typedUnary(pfs_v2.CountProjectRequestSchema, async () => ({
      count: int64(store.listProjects().length),
    })),
  );

  // ---- repos ----------------------------------------------------------------------------

  const isPipelineOutput = (repo: RepoRow) =>
    repo.type === 'user' &&
    store.findRepo({ project: repo.project, name: repo.name, type: 'spec' }) !== undefined;

  add(
    'DeleteRepos',
    typedUnary(pfs_v2.DeleteReposRequestSchema, async (req) => {
      const projects = projectNames(req.projects);
      const { all, force } = req;
      if (projects.length === 0 && !all) throw invalidArgument('DeleteRepos needs projects or all');
      for (const project of projects) store.getProject(project);
      const repos = store.listRepos({ type: 'user', projects: all ? [] : projects });
      const outputs = repos.filter(isPipelineOutput);
      if (outputs.length > 0 && !force)
        throw failedPrecondition(
          `repo ${outputs[0]?.name} is the output of a pipeline: delete the pipeline, or use force`,
        );
      store.transaction(() => {
        for (const repo of repos)
          store.deleteRepo({ project: repo.project, name: repo.name, type: repo.type });
      });
      return { repos: repos.map((repo) => messages.repo(repo)) };
    }),
  );

  add(
    'CopyRepo',
    typedUnary(pfs_v2.CopyRepoRequestSchema, async (req) => {
      const src = store.getRepo(repoRefOf(req.src));
      const dstRef = repoRefOf(req.dst);
      if (!dstRef.name) throw invalidArgument('dst.name is required');
      if (store.findRepo(dstRef))
        throw alreadyExists(`repo ${dstRef.name} already exists in project ${dstRef.project}`);
      store.transaction(() => {
        const dst = store.createRepo(dstRef, src.description, false);
        const branches = store.listBranches(src);
        for (const branch of branches) {
          let head: CommitRow | null =
            branch.head_rowid === null ? null : store.commitByRowid(branch.head_rowid);
          while (head && isOpen(head))
            head = head.parent_rowid === null ? null : store.commitByRowid(head.parent_rowid);
          const files: NewFile[] = head
            ? store
                .allFiles(head)
                .filter((row) => row.type === 'FILE')
                .map((row) => ({ path: row.path, hash: row.hash, sizeBytes: row.size_bytes }))
            : [];
          store.landCommit(
            dst,
            branch.name,
            head ? `copy of ${src.project}/${src.name}@${head.id}` : `copy of ${src.name}`,
            files,
          );
        }
        for (const branch of branches) {
          const provenance = JSON.parse(branch.provenance) as string[];
          if (provenance.length > 0) store.createBranch(dst, branch.name, null, provenance);
        }
      });
      return {};
    }),
  );

  // ---- commits and files ----------------------------------------------------------------

  add(
    'ClearCommit',
    typedUnary(pfs_v2.ClearCommitRequestSchema, async (req) => {
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      store.clearCommit(commit);
      return {};
    }),
  );

  add(
    'GetFileTAR',
    typedStream(pfs_v2.GetFileRequestSchema, async function* (req, signal) {
      const file = fileRefOf(req.file);
      const { commit } = resolveCommitRef(store, file.commit);
      const row = store.getFile(commit, file.path);
      const body = packTar(store, blobs, commit, [row], '/');
      try {
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        for await (const chunk of body) {
          if (signal.aborted) return;
          pending.push(chunk as Buffer);
          pendingBytes += (chunk as Buffer).length;
          while (pendingBytes >= tarChunkBytes) {
            const joined = Buffer.concat(pending);
            yield joined.subarray(0, tarChunkBytes);
            pending = [joined.subarray(tarChunkBytes)];
            pendingBytes = joined.length - tarChunkBytes;
          }
        }
        if (pendingBytes > 0) yield Buffer.concat(pending);
      } finally {
        body.destroy();
      }
    }),
  );

  // ---- cluster-wide ---------------------------------------------------------------------

  async function deleteAll(): Promise<void> {
    await deps.deleteAllPipelines();
    store.deleteAll();
    db.prepare('DELETE FROM pfs_cache').run();
  }

  add(
    'DeleteAll',
    typedUnary(EmptySchema, async () => {
      await deleteAll();
      return {};
    }),
  );

  add(
    'ListTask',
    typedStream(taskapi.ListTaskRequestSchema, async function* () {
      // No task queue in the embedded platform: nothing to list.
    }),
  );

  // ---- cache ----------------------------------------------------------------------------

  // The `value` (an Any) is stored as its protobuf JSON, which GetCache answers as it is: its
  // type must be one the server knows (the protocol's or a well-known type), as protobuf JSON
  // cannot write an Any of an unknown type (3 otherwise).
  add(
    'PutCache',
    typedUnary(pfs_v2.PutCacheRequestSchema, async (req) => {
      const { key, fileSetIds } = req;
      if (!key) throw invalidArgument('key is required');
      let value: unknown = null;
      try {
        if (req.value) value = toJson(AnySchema, req.value, { registry: jsonRegistry });
      } catch (error) {
        throw invalidArgument(`value: ${(error as Error).message}`);
      }
      db.prepare(
        `INSERT INTO pfs_cache (key, value, tag, file_set_ids, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, tag = excluded.tag,
           file_set_ids = excluded.file_set_ids, created_at = excluded.created_at`,
      ).run(key, JSON.stringify(value), req.tag, JSON.stringify(fileSetIds), Date.now());
      return {};
    }),
  );

  add(
    'GetCache',
    typedUnary(pfs_v2.GetCacheRequestSchema, async ({ key }) => {
      const value = db.prepare('SELECT value FROM pfs_cache WHERE key = ?').pluck().get(key);
      if (typeof value !== 'string') throw notFound(`cache key ${key} not found`);
      return { value: JSON.parse(value) as unknown };
    }),
  );

  add(
    'ClearCache',
    typedUnary(pfs_v2.ClearCacheRequestSchema, async ({ tagPrefix: prefix }) => {
      db.prepare('DELETE FROM pfs_cache WHERE substr(tag, 1, length(?)) = ?').run(prefix, prefix);
      return {};
    }),
  );

  return { deleteAll };
}
