import { pfs_v2 } from '@ivory/api/proto';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import { int64 } from '../wire.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { MethodRegistry } from '../platform.ts';
import { safeNumber, typedClientStream, typedStream, typedUnary } from '../typed-method.ts';
import { slicer } from '../event-loop.ts';
import { runStream } from '../message-runs.ts';
import type { CommitEvents } from './commit-events.ts';
import { asDirPath } from './file-paths.ts';
import { compileGlob, globPrefix } from './glob.ts';
import { modifyFile, modifyFileRequestFromJson } from './modify-file.ts';
import { FileInfoLines } from './file-info-lines.ts';
import { PfsMessages, type CommitMessage, type FileInfoMessage } from './pfs-messages.ts';
import {
  branchRefOf,
  commitRefOf,
  fileRefOf,
  markerPathOf,
  namesCommitOf,
  projectNameOf,
  projectPickerNamesOrAll,
  repoRefOf,
} from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';
import {
  commitState,
  type CommitRow,
  type FileRow,
  type ListedFile,
  type RepoType,
} from './rows.ts';

const commitStates = ['COMMIT_STATE_UNKNOWN', 'STARTED', 'READY', 'FINISHING', 'FINISHED'] as const;
type WaitState = (typeof commitStates)[number];
const originKinds = ['ORIGIN_KIND_UNKNOWN', 'USER', 'AUTO', 'FSCK'] as const;

/** The name of a request's enum value (a number from binary may be outside the enum: 3). */
function enumName<T extends string>(names: readonly T[], value: number, field: string): T {
  const name = names[value];
  if (name === undefined) throw invalidArgument(`${field} must be one of ${names.join(', ')}`);
  return name;
}

/** ListCommit reads a repo's commits this many at a time. */
const listCommitPageRows = 256;

/** GetFile sends at most this many bytes per line. */
const getFileChunkBytes = 1024 * 1024;

function reached(commit: CommitRow, wanted: WaitState): boolean {
  const state = commitState(commit);
  if (wanted === 'FINISHED') return state === 'FINISHED';
  if (wanted === 'FINISHING' || wanted === 'READY') return state !== 'STARTED';
  return true;
}

/** Registers the embedded pfs_v2.API methods. */
export function registerPfsApi(
  methods: MethodRegistry,
  store: PfsStore,
  blobs: BlobStore,
  events: CommitEvents,
): void {
  const messages = new PfsMessages(store);
  /** Message runs of one listing's FileInfos (the commit's part of each line made once). */
  const fileRuns = (commit: CommitMessage) => {
    const lines = new FileInfoLines(commit);
    return (rows: readonly ListedFile[]) => messages.fileInfoRun(rows, commit, lines);
  };
  const add = (name: string, method: Parameters<MethodRegistry['set']>[1]) =>
    methods.set(`pfs_v2.API/${name}`, method);

  async function waitFor(
    commit: CommitRow,
    state: WaitState,
    signal: AbortSignal,
  ): Promise<CommitRow> {
    let current = commit;
    while (!reached(current, state) && !signal.aborted) {
      await events.next(signal);
      current = store.commitByRowid(commit.rowid);
      if (!current) throw notFound(`commit ${commit.id} was deleted`);
    }
    return current;
  }

  // ---- projects -------------------------------------------------------------------------

  add(
    'CreateProject',
    typedUnary(pfs_v2.CreateProjectRequestSchema, async (req) => {
      store.createProject(projectNameOf(req.project), req.description, req.update);
      return {};
    }),
  );

  add(
    'InspectProject',
    typedUnary(pfs_v2.InspectProjectRequestSchema, async (req) => {
      return messages.projectInfo(store.getProject(projectNameOf(req.project)));
    }),
  );

  add(
    'InspectProjectV2',
    typedUnary(pfs_v2.InspectProjectV2RequestSchema, async (req) => {
      return {
        info: messages.projectInfo(store.getProject(projectNameOf(req.project))),
        defaultsJson: '{}',
      };
    }),
  );

  add(
    'ListProject',
    typedStream(pfs_v2.ListProjectRequestSchema, async function* () {
      for (const project of store.listProjects()) yield messages.projectInfo(project);
    }),
  );

  add(
    'DeleteProject',
    typedUnary(pfs_v2.DeleteProjectRequestSchema, async (req) => {
      store.deleteProject(projectNameOf(req.project), req.force);
      return {};
    }),
  );

  add(
    'ReposSummary',
    typedUnary(pfs_v2.ReposSummaryRequestSchema, async (req) => {
      const names = projectPickerNamesOrAll(req.projects, () =>
        store.listProjects().map((project) => project.name),
      );
      return {
        summaries: names.map((name) => {
          store.getProject(name);
          const repos = store.listRepos({ type: 'user', projects: [name] });
          return {
            project: { name },
            userRepoCount: int64(repos.length),
            sizeBytes: int64(repos.reduce((total, repo) => total + store.repoSize(repo), 0)),
          };
        }),
      };
    }),
  );

  // ---- repos ----------------------------------------------------------------------------

  add(
    'CreateRepo',
    typedUnary(pfs_v2.CreateRepoRequestSchema, async (req) => {
      store.createRepo(repoRefOf(req.repo), req.description, req.update);
      return {};
    }),
  );

  add(
    'InspectRepo',
    typedUnary(pfs_v2.InspectRepoRequestSchema, async (req) => {
      return messages.repoInfo(store.getRepo(repoRefOf(req.repo)));
    }),
  );

  add(
    'ListRepo',
    typedStream(pfs_v2.ListRepoRequestSchema, async function* (req) {
      const type = req.type;
      const projects = req.projects.map(projectNameOf);
      let repos = store.listRepos({ type: type ? (type as RepoType) : null, projects });
      const page = req.page;
      const pageSize = page ? safeNumber(page.pageSize, 'page.pageSize') : 0;
      if (page && pageSize > 0) {
        const start = safeNumber(page.pageIndex, 'page.pageIndex') * pageSize;
        repos = repos.slice(start, start + pageSize);
      }
      for (const repo of repos) yield messages.repoInfo(repo);
    }),
  );

  add(
    'DeleteRepo',
    typedUnary(pfs_v2.DeleteRepoRequestSchema, async (req) => {
      store.deleteRepo(repoRefOf(req.repo));
      return { deleted: true };
    }),
  );

  // ---- branches -------------------------------------------------------------------------

  add(
    'CreateBranch',
    typedUnary(pfs_v2.CreateBranchRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      const repo = store.getRepo(branch.repo);
      const head = req.head
        ? resolveCommitRef(store, commitRefOf(req.head, branch.repo)).commit
        : null;
      if (head && head.repo_id !== repo.id)
        throw failedPrecondition('the head commit must belong to the branch repo');
      const provenance = req.provenance.map((b) => b.name);
      store.createBranch(repo, branch.name, head, provenance);
      return {};
    }),
  );

  add(
    'InspectBranch',
    typedUnary(pfs_v2.InspectBranchRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      const repo = store.getRepo(branch.repo);
      return messages.branchInfo(repo, store.getBranch(repo, branch.name));
    }),
  );

  add(
    'ListBranch',
    typedStream(pfs_v2.ListBranchRequestSchema, async function* (req) {
      const repo = store.getRepo(repoRefOf(req.repo));
      const branches = store.listBranches(repo);
      if (req.reverse) branches.reverse();
      for (const branch of branches) yield messages.branchInfo(repo, branch);
    }),
  );

  add(
    'DeleteBranch',
    typedUnary(pfs_v2.DeleteBranchRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      store.deleteBranch(store.getRepo(branch.repo), branch.name);
      return {};
    }),
  );

  // ---- commits --------------------------------------------------------------------------

  add(
    'StartCommit',
    typedUnary(pfs_v2.StartCommitRequestSchema, async (req) => {
      const branch = branchRefOf(req.branch);
      const repo = store.getRepo(branch.repo);
      const parent = namesCommitOf(req.parent)
        ? resolveCommitRef(store, commitRefOf(req.parent, branch.repo)).commit
        : null;
      const commit = store.startCommit(repo, branch.name, parent, req.description);
      return messages.commit(commit, repo);
    }),
  );

  add(
    'FinishCommit',
    typedUnary(pfs_v2.FinishCommitRequestSchema, async (req) => {
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      store.finishCommit(commit, req.description, req.error);
      return {};
    }),
  );

  add(
    'InspectCommit',
    typedUnary(pfs_v2.InspectCommitRequestSchema, async (req, signal) => {
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      const wait = enumName(commitStates, req.wait, 'wait');
      return messages.commitInfo(await waitFor(commit, wait, signal));
    }),
  );

  add(
    'ListCommit',
    typedStream(pfs_v2.ListCommitRequestSchema, async function* (req) {
      const repoRef = repoRefOf(req.repo);
      const to = namesCommitOf(req.to)
        ? resolveCommitRef(store, commitRefOf(req.to, repoRef))
        : null;
      const from = namesCommitOf(req.from)
        ? resolveCommitRef(store, commitRefOf(req.from, repoRef)).commit
        : null;
      // Without a repo of its own the listing is of the commits' repo (pachd reads it the same).
      const repo = repoRef.name ? store.getRepo(repoRef) : (to?.repo ?? store.getRepo(repoRef));
      const originKind = enumName(originKinds, req.originKind, 'originKind');
      const number = safeNumber(req.number, 'number');
      const reverse = req.reverse;
      const origin = originKind === 'ORIGIN_KIND_UNKNOWN' ? null : originKind;
      // Both walks read a page at a time (the lineage index, or the repo's commits by rowid),
      // so the first `number` commits cost about the same however long the history is.
      const commits = to
        ? (function* () {
            for (const commit of store.commitChain(to.commit, { stopAt: from, reverse }))
              if (origin === null || commit.origin === origin) yield commit;
          })()
        : (function* () {
            let after: number | null = null;
            for (;;) {
              const page = store.repoCommitsPage(repo, {
                after,
                from: from?.rowid ?? null,
                origin,
                reverse,
                limit: listCommitPageRows,
              });
              yield* page;
              if (page.length < listCommitPageRows) return;
              after = (page[page.length - 1] as CommitRow).rowid;
            }
          })();
      let sent = 0;
      const pause = slicer();
      for (const commit of commits) {
        if (number > 0 && sent >= number) break;
        yield messages.commitInfo(commit);
        sent++;
        await pause();
      }
    }),
  );

  add(
    'SubscribeCommit',
    typedStream(pfs_v2.SubscribeCommitRequestSchema, async function* (req, signal) {
      const repoRef = repoRefOf(req.repo);
      const repo = store.getRepo(repoRef);
      const branch = req.branch;
      const from = namesCommitOf(req.from)
        ? resolveCommitRef(store, commitRefOf(req.from, repoRef)).commit
        : null;
      const state = enumName(commitStates, req.state, 'state');
      const originKind = enumName(originKinds, req.originKind, 'originKind');
      const wanted = (commit: CommitRow) =>
        (!branch || commit.branch_name === branch) &&
        (originKind === 'ORIGIN_KIND_UNKNOWN' || commit.origin === originKind);
      const sent = new Set<number>();
      // Every commit at or below `floor` is sent or never will be: each round reads only the
      // commits above it (oldest first, a page at a time), not the repo's whole history.
      let floor = from?.rowid ?? 0;
      while (!signal.aborted) {
        let after: number | null = null;
        let settled = true;
        for (;;) {
          const page = store.repoCommitsPage(repo, {
            after,
            from: floor,
            origin: null,
            reverse: true,
            limit: listCommitPageRows,
          });
          const due = page.filter(
            (commit) => !sent.has(commit.rowid) && wanted(commit) && reached(commit, state),
          );
          for (const commit of page) {
            const done = sent.has(commit.rowid) || due.includes(commit) || !wanted(commit);
            settled &&= done;
            if (settled) floor = commit.rowid;
          }
          for (const commit of due) {
            sent.add(commit.rowid);
            yield messages.commitInfo(commit);
          }
          if (page.length < listCommitPageRows) break;
          after = (page[page.length - 1] as CommitRow).rowid;
        }
        for (const rowid of sent) if (rowid <= floor) sent.delete(rowid);
        await events.next(signal);
      }
    }),
  );

  add(
    'InspectCommitSet',
    typedStream(pfs_v2.InspectCommitSetRequestSchema, async function* (req, signal) {
      const id = req.commitSet?.id ?? '';
      let commits = store.commitsWithId(id);
      if (commits.length === 0) throw notFound(`commit set ${id} not found`);
      if (req.wait) {
        while (!signal.aborted && commits.some((commit) => !reached(commit, 'FINISHED'))) {
          await events.next(signal);
          commits = store.commitsWithId(id);
        }
      }
      for (const commit of commits) yield messages.commitInfo(commit);
    }),
  );

  add(
    'ListCommitSet',
    typedStream(pfs_v2.ListCommitSetRequestSchema, async function* (req) {
      const project = req.project?.name ?? '';
      if (project) store.getProject(project);
      for (const id of store.commitSetIds(project || null)) {
        yield {
          commitSet: { id },
          commits: store.commitsWithId(id).map((commit) => messages.commitInfo(commit)),
        };
      }
    }),
  );

  // ---- files ----------------------------------------------------------------------------

  add(
    'ModifyFile',
    typedClientStream(
      pfs_v2.ModifyFileRequestSchema,
      (requests, signal) => modifyFile(store, blobs, requests, signal),
      { requestFromJson: modifyFileRequestFromJson },
    ),
  );

  add(
    'InspectFile',
    typedUnary(pfs_v2.InspectFileRequestSchema, async (req) => {
      const file = fileRefOf(req.file);
      const { repo, commit } = resolveCommitRef(store, file.commit);
      return messages.fileInfo(store.getFile(commit, file.path), messages.commit(commit, repo));
    }),
  );

  add(
    'GetFile',
    typedStream(pfs_v2.GetFileRequestSchema, async function* (req, signal) {
      const file = fileRefOf(req.file);
      const offset = Number(req.offset);
      if (offset < 0) throw invalidArgument('offset must not be negative');
      const { commit } = resolveCommitRef(store, file.commit);
      const row = store.getFile(commit, file.path);
      if (row.type !== 'FILE') throw failedPrecondition(`${file.path} is a directory`);
      if (row.size_bytes === 0 || offset >= row.size_bytes) return;
      // Read in message-sized chunks, each yielded as read (no re-chunking copy); the gRPC
      // listener gives each buffer back for the next read once it has sent it.
      const range = { start: offset, end: row.size_bytes - 1 };
      for await (const chunk of blobs.readChunks(row.hash, range, getFileChunkBytes)) {
        if (signal.aborted) return;
        yield chunk;
      }
    }),
  );

  // Listings are message runs (message-runs.ts): a chunk of rows at a time, written by the
  // gateway as NDJSON straight from the rows, or read a message at a time by other consumers.
  add(
    'ListFile',
    typedStream(pfs_v2.ListFileRequestSchema, (req) =>
      runStream(async function* () {
        const file = fileRefOf(req.file);
        const { repo, commit } = resolveCommitRef(store, file.commit);
        const files = fileRuns(messages.commit(commit, repo));
        const row = store.getFile(commit, file.path);
        if (row.type === 'FILE') {
          yield files([row]);
          return;
        }
        const page = {
          after: markerPathOf(req.paginationMarker),
          limit: safeNumber(req.number, 'number'),
          reverse: req.reverse,
        };
        // A chunk at a time: a million-entry folder never sits in memory whole.
        const pause = slicer();
        for (const rows of store.scanChildren(commit, row.path, page)) {
          yield files(rows);
          await pause();
        }
      }),
    ),
  );

  add(
    'WalkFile',
    typedStream(pfs_v2.WalkFileRequestSchema, (req) =>
      runStream(async function* () {
        const file = fileRefOf(req.file);
        const { repo, commit } = resolveCommitRef(store, file.commit);
        const files = fileRuns(messages.commit(commit, repo));
        const row = store.getFile(commit, file.path);
        const after = markerPathOf(req.paginationMarker);
        const limit = safeNumber(req.number, 'number');
        const reverse = req.reverse;
        const selfIncluded = after === null || (reverse ? row.path < after : row.path > after);
        // Forward the folder comes first, reversed last; the subtree is read a chunk at a time.
        let sent = 0;
        if (selfIncluded && !reverse) {
          yield files([row]);
          sent++;
        }
        if (row.type === 'DIR' && !(limit > 0 && sent >= limit)) {
          const page = { after, limit: limit > 0 ? limit - sent : 0, reverse };
          const pause = slicer();
          for (const rows of store.scanSubtree(commit, row.path, page)) {
            yield files(rows);
            sent += rows.length;
            await pause();
          }
        }
        if (selfIncluded && reverse && !(limit > 0 && sent >= limit)) yield files([row]);
      }),
    ),
  );

  add(
    'GlobFile',
    typedStream(pfs_v2.GlobFileRequestSchema, (req) =>
      runStream(async function* () {
        const { repo, commit } = resolveCommitRef(store, commitRefOf(req.commit));
        const patternText = req.pattern || '/';
        const pattern = compileGlob(patternText);
        const matchesRoot = patternText.replace(/\/+/g, '') === '';
        const lower = req.pathRange?.lower ?? '';
        const upper = req.pathRange?.upper ?? '';
        if (lower && upper && lower > upper)
          throw invalidArgument('pathRange.lower must not come after pathRange.upper');
        const files = fileRuns(messages.commit(commit, repo));
        if (matchesRoot) {
          const root = store.getFile(commit, '/');
          if (
            pattern.test(root.path) &&
            !(lower && root.path < lower) &&
            !(upper && root.path >= upper)
          )
            yield files([root]);
          return;
        }
        // Only paths starting with the glob's literal prefix can match: scan that range of the
        // path index (narrowed by pathRange), a chunk at a time.
        const scan = globPrefix(patternText);
        const from =
          scan.prefix.length > 1 && !(lower && lower > scan.prefix) ? scan.prefix : lower;
        const to = scan.upper !== null && !(upper && upper < scan.upper) ? scan.upper : upper;
        if (from && to && from >= to) return;
        const pause = slicer();
        const chunks = store.scanRange(commit, from || null, to || null);
        for (const rows of chunks) {
          const matched = rows.filter((row) => {
            const bare =
              row.path.length > 1 && row.path.endsWith('/') ? row.path.slice(0, -1) : row.path;
            return scan.anyBelow ? bare.startsWith(scan.prefix) : pattern.test(bare);
          });
          if (matched.length > 0) yield files(matched);
          await pause();
        }
      }),
    ),
  );

  add(
    'DiffFile',
    typedStream(pfs_v2.DiffFileRequestSchema, async function* (req) {
      const newFile = fileRefOf(req.newFile);
      const { repo, commit: newCommit } = resolveCommitRef(store, newFile.commit);
      const oldFile = req.oldFile?.commit ? fileRefOf(req.oldFile) : null;
      const oldCommit = oldFile
        ? resolveCommitRef(store, oldFile.commit).commit
        : newCommit.parent_rowid === null
          ? null
          : store.commitByRowid(newCommit.parent_rowid);
      const shallow = req.shallow;
      const newRows = rowsUnder(newCommit, newFile.path, shallow);
      const oldRows = oldCommit
        ? rowsUnder(oldCommit, oldFile?.path ?? newFile.path, shallow)
        : new Map<string, FileRow>();
      const changedFiles = new Set(
        [...newRows.keys(), ...oldRows.keys()].filter((path) => {
          const a = newRows.get(path);
          const b = oldRows.get(path);
          return a?.type !== b?.type || (a?.type === 'FILE' && a.hash !== b?.hash);
        }),
      );
      const changedDeep = oldCommit ? diffPaths(newCommit, oldCommit) : null;
      const isChanged = (path: string) => {
        const a = newRows.get(path);
        const b = oldRows.get(path);
        if (a?.type === 'DIR' && b?.type === 'DIR') {
          return changedDeep === null || changedDeep.some((changed) => changed.startsWith(path));
        }
        return changedFiles.has(path);
      };
      const newCommitMessage = messages.commit(newCommit, repo);
      const oldCommitMessage = oldCommit ? messages.commit(oldCommit) : null;
      const paths = [...new Set([...newRows.keys(), ...oldRows.keys()])].sort();
      for (const path of paths) {
        if (!isChanged(path)) continue;
        const a = newRows.get(path);
        const b = oldRows.get(path);
        yield {
          newFile: a ? messages.fileInfo(a, newCommitMessage) : null,
          oldFile: b && oldCommitMessage ? messages.fileInfo(b, oldCommitMessage) : null,
        } satisfies { newFile: FileInfoMessage | null; oldFile: FileInfoMessage | null };
      }
    }),
  );

  function rowsUnder(commit: CommitRow, path: string, shallow: boolean): Map<string, FileRow> {
    const rows = new Map<string, FileRow>();
    const row = store.findFile(commit, path);
    if (!row) return rows;
    if (row.type === 'FILE') return rows.set(row.path, row);
    const dir = asDirPath(row.path);
    const entries = shallow
      ? store.listChildren(commit, dir, { after: null, limit: 0, reverse: false })
      : store.listSubtree(commit, dir);
    for (const entry of entries) rows.set(entry.path, entry);
    return rows;
  }

  /** Paths of files whose content differs between two commits. */
  function diffPaths(a: CommitRow, b: CommitRow): string[] {
    const left = new Map(
      store
        .allFiles(a)
        .filter((r) => r.type === 'FILE')
        .map((r) => [r.path, r.hash]),
    );
    const right = new Map(
      store
        .allFiles(b)
        .filter((r) => r.type === 'FILE')
        .map((r) => [r.path, r.hash]),
    );
    return [...new Set([...left.keys(), ...right.keys()])].filter(
      (path) => left.get(path) !== right.get(path),
    );
  }
}
