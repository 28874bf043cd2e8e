import { failedPrecondition, invalidArgument, notFound } from '../../errors.ts';
import {
  int64,
  readBool,
  readEnum,
  readInt,
  readList,
  readObject,
  readOptionalObject,
  readString,
} from '../wire.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { clientStream, stream, unary, type MethodRegistry } from '../platform.ts';
import { slicer } from '../event-loop.ts';
import { runStream } from '../message-runs.ts';
import type { CommitEvents } from './commit-events.ts';
import { asDirPath } from './file-paths.ts';
import { compileGlob, globPrefix } from './glob.ts';
import { modifyFile } from './modify-file.ts';
import { FileInfoLines } from './file-info-lines.ts';
import { PfsMessages, type CommitMessage, type FileInfoMessage } from './pfs-messages.ts';
import {
  namesCommit,
  readBranchRef,
  readCommitRef,
  readFileRef,
  readMarkerPath,
  readProjectName,
  readProjectNamesOrAll,
  readRepoRef,
  resolveCommitRef,
} from './pfs-requests.ts';
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
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      store.createProject(
        readProjectName(req.project, 'project'),
        readString(req.description, 'description'),
        readBool(req.update, 'update'),
      );
      return {};
    }),
  );

  add(
    'InspectProject',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      return messages.projectInfo(store.getProject(readProjectName(req.project, 'project')));
    }),
  );

  add(
    'InspectProjectV2',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      return {
        info: messages.projectInfo(store.getProject(readProjectName(req.project, 'project'))),
        defaultsJson: '{}',
      };
    }),
  );

  add(
    'ListProject',
    stream(async function* () {
      for (const project of store.listProjects()) yield messages.projectInfo(project);
    }),
  );

  add(
    'DeleteProject',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      store.deleteProject(readProjectName(req.project, 'project'), readBool(req.force, 'force'));
      return {};
    }),
  );

  add(
    'ReposSummary',
    unary(async (raw) => {
      const names = readProjectNamesOrAll(readObject(raw, 'request').projects, () =>
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
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      store.createRepo(
        readRepoRef(req.repo, 'repo'),
        readString(req.description, 'description'),
        readBool(req.update, 'update'),
      );
      return {};
    }),
  );

  add(
    'InspectRepo',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      return messages.repoInfo(store.getRepo(readRepoRef(req.repo, 'repo')));
    }),
  );

  add(
    'ListRepo',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const type = readString(req.type, 'type');
      const projects = readList(req.projects, 'projects').map((project, i) =>
        readProjectName(project, `projects[${i}]`),
      );
      let repos = store.listRepos({ type: type ? (type as RepoType) : null, projects });
      const page = readOptionalObject(req.page, 'page');
      const pageSize = page ? readInt(page.pageSize, 'page.pageSize') : 0;
      if (page && pageSize > 0) {
        const start = readInt(page.pageIndex, 'page.pageIndex') * pageSize;
        repos = repos.slice(start, start + pageSize);
      }
      for (const repo of repos) yield messages.repoInfo(repo);
    }),
  );

  add(
    'DeleteRepo',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      store.deleteRepo(readRepoRef(req.repo, 'repo'));
      return { deleted: true };
    }),
  );

  // ---- branches -------------------------------------------------------------------------

  add(
    'CreateBranch',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const branch = readBranchRef(req.branch, 'branch');
      const repo = store.getRepo(branch.repo);
      const headRef = readOptionalObject(req.head, 'head');
      const head = headRef
        ? resolveCommitRef(store, readCommitRef(headRef, 'head', branch.repo)).commit
        : null;
      if (head && head.repo_id !== repo.id)
        throw failedPrecondition('the head commit must belong to the branch repo');
      const provenance = readList(req.provenance, 'provenance').map(
        (b, i) => readBranchRef(b, `provenance[${i}]`).name,
      );
      store.createBranch(repo, branch.name, head, provenance);
      return {};
    }),
  );

  add(
    'InspectBranch',
    unary(async (raw) => {
      const branch = readBranchRef(readObject(raw, 'request').branch, 'branch');
      const repo = store.getRepo(branch.repo);
      return messages.branchInfo(repo, store.getBranch(repo, branch.name));
    }),
  );

  add(
    'ListBranch',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const repo = store.getRepo(readRepoRef(req.repo, 'repo'));
      const branches = store.listBranches(repo);
      if (readBool(req.reverse, 'reverse')) branches.reverse();
      for (const branch of branches) yield messages.branchInfo(repo, branch);
    }),
  );

  add(
    'DeleteBranch',
    unary(async (raw) => {
      const branch = readBranchRef(readObject(raw, 'request').branch, 'branch');
      store.deleteBranch(store.getRepo(branch.repo), branch.name);
      return {};
    }),
  );

  // ---- commits --------------------------------------------------------------------------

  add(
    'StartCommit',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const branch = readBranchRef(req.branch, 'branch');
      const repo = store.getRepo(branch.repo);
      const parentRef = readOptionalObject(req.parent, 'parent');
      const parent = namesCommit(parentRef, 'parent')
        ? resolveCommitRef(store, readCommitRef(parentRef, 'parent', branch.repo)).commit
        : null;
      const commit = store.startCommit(
        repo,
        branch.name,
        parent,
        readString(req.description, 'description'),
      );
      return messages.commit(commit, repo);
    }),
  );

  add(
    'FinishCommit',
    unary(async (raw) => {
      const req = readObject(raw, 'request');
      const { commit } = resolveCommitRef(store, readCommitRef(req.commit, 'commit'));
      store.finishCommit(
        commit,
        readString(req.description, 'description'),
        readString(req.error, 'error'),
      );
      return {};
    }),
  );

  add(
    'InspectCommit',
    unary(async (raw, signal) => {
      const req = readObject(raw, 'request');
      const { commit } = resolveCommitRef(store, readCommitRef(req.commit, 'commit'));
      const wait = readEnum(req.wait, commitStates, 'wait');
      return messages.commitInfo(await waitFor(commit, wait, signal));
    }),
  );

  add(
    'ListCommit',
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const repoRef = readRepoRef(req.repo, 'repo');
      const toRef = readOptionalObject(req.to, 'to');
      const fromRef = readOptionalObject(req.from, 'from');
      const to = namesCommit(toRef, 'to')
        ? resolveCommitRef(store, readCommitRef(toRef, 'to', repoRef))
        : null;
      const from = namesCommit(fromRef, 'from')
        ? resolveCommitRef(store, readCommitRef(fromRef, 'from', repoRef)).commit
        : null;
      // Without a repo of its own the listing is of the commits' repo (pachd reads it the same).
      const repo = repoRef.name ? store.getRepo(repoRef) : (to?.repo ?? store.getRepo(repoRef));
      const originKind = readEnum(req.originKind, originKinds, 'originKind');
      const number = readInt(req.number, 'number');
      const reverse = readBool(req.reverse, 'reverse');
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
    stream(async function* (raw, signal) {
      const req = readObject(raw, 'request');
      const repoRef = readRepoRef(req.repo, 'repo');
      const repo = store.getRepo(repoRef);
      const branch = readString(req.branch, 'branch');
      const fromRef = readOptionalObject(req.from, 'from');
      const from = namesCommit(fromRef, 'from')
        ? resolveCommitRef(store, readCommitRef(fromRef, 'from', repoRef)).commit
        : null;
      const state = readEnum(req.state, commitStates, 'state');
      const originKind = readEnum(req.originKind, originKinds, 'originKind');
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
    stream(async function* (raw, signal) {
      const req = readObject(raw, 'request');
      const id = readString(readObject(req.commitSet, 'commitSet').id, 'commitSet.id');
      let commits = store.commitsWithId(id);
      if (commits.length === 0) throw notFound(`commit set ${id} not found`);
      if (readBool(req.wait, 'wait')) {
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
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const projectRef = readOptionalObject(req.project, 'project');
      const project = projectRef ? readString(projectRef.name, 'project.name') : '';
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
    clientStream((requests, signal) => modifyFile(store, blobs, requests, signal)),
  );

  add(
    'InspectFile',
    unary(async (raw) => {
      const file = readFileRef(readObject(raw, 'request').file, 'file');
      const { repo, commit } = resolveCommitRef(store, file.commit);
      return messages.fileInfo(store.getFile(commit, file.path), messages.commit(commit, repo));
    }),
  );

  add(
    'GetFile',
    stream(async function* (raw, signal) {
      const req = readObject(raw, 'request');
      const file = readFileRef(req.file, 'file');
      const offset = readInt(req.offset, 'offset');
      if (offset < 0) throw invalidArgument('offset must not be negative');
      const { commit } = resolveCommitRef(store, file.commit);
      const row = store.getFile(commit, file.path);
      if (row.type !== 'FILE') throw failedPrecondition(`${file.path} is a directory`);
      if (row.size_bytes === 0 || offset >= row.size_bytes) return;
      const source = blobs.read(row.hash, { start: offset, end: row.size_bytes - 1 });
      try {
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        for await (const chunk of source) {
          if (signal.aborted) return;
          pending.push(chunk as Buffer);
          pendingBytes += (chunk as Buffer).length;
          while (pendingBytes >= getFileChunkBytes) {
            const joined = Buffer.concat(pending);
            yield joined.subarray(0, getFileChunkBytes).toString('base64');
            pending = [joined.subarray(getFileChunkBytes)];
            pendingBytes = joined.length - getFileChunkBytes;
          }
        }
        if (pendingBytes > 0) yield Buffer.concat(pending).toString('base64');
      } finally {
        source.destroy();
      }
    }),
  );

  // Listings are message runs (message-runs.ts): a chunk of rows at a time, written by the
  // gateway as NDJSON straight from the rows, or read a message at a time by other consumers.
  add(
    'ListFile',
    stream((raw) =>
      runStream(async function* () {
        const req = readObject(raw, 'request');
        const file = readFileRef(req.file, 'file');
        const { repo, commit } = resolveCommitRef(store, file.commit);
        const files = fileRuns(messages.commit(commit, repo));
        const row = store.getFile(commit, file.path);
        if (row.type === 'FILE') {
          yield files([row]);
          return;
        }
        const page = {
          after: readMarkerPath(req.paginationMarker, 'paginationMarker'),
          limit: readInt(req.number, 'number'),
          reverse: readBool(req.reverse, 'reverse'),
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
    stream((raw) =>
      runStream(async function* () {
        const req = readObject(raw, 'request');
        const file = readFileRef(req.file, 'file');
        const { repo, commit } = resolveCommitRef(store, file.commit);
        const files = fileRuns(messages.commit(commit, repo));
        const row = store.getFile(commit, file.path);
        const after = readMarkerPath(req.paginationMarker, 'paginationMarker');
        const limit = readInt(req.number, 'number');
        const reverse = readBool(req.reverse, 'reverse');
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
    stream((raw) =>
      runStream(async function* () {
        const req = readObject(raw, 'request');
        const { repo, commit } = resolveCommitRef(store, readCommitRef(req.commit, 'commit'));
        const patternText = readString(req.pattern, 'pattern') || '/';
        const pattern = compileGlob(patternText);
        const matchesRoot = patternText.replace(/\/+/g, '') === '';
        const range = readOptionalObject(req.pathRange, 'pathRange');
        const lower = range ? readString(range.lower, 'pathRange.lower') : '';
        const upper = range ? readString(range.upper, 'pathRange.upper') : '';
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
    stream(async function* (raw) {
      const req = readObject(raw, 'request');
      const newFile = readFileRef(req.newFile, 'newFile');
      const { repo, commit: newCommit } = resolveCommitRef(store, newFile.commit);
      const oldRef = readOptionalObject(req.oldFile, 'oldFile');
      const oldFile =
        oldRef && readOptionalObject(oldRef.commit, 'oldFile.commit')
          ? readFileRef(oldRef, 'oldFile')
          : null;
      const oldCommit = oldFile
        ? resolveCommitRef(store, oldFile.commit).commit
        : newCommit.parent_rowid === null
          ? null
          : store.commitByRowid(newCommit.parent_rowid);
      const shallow = readBool(req.shallow, 'shallow');
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
