import { base64ToBytes } from './base64.ts';
import type { ApiClient } from './client.ts';
import type {
  CommitState,
  FileInfo,
  FindCommitsResponse,
  FsckResponse,
  ModifyFileOp,
  OriginKind,
  RepoType,
  ReposSummary,
} from './types/pfs.ts';
import { call, callOrNull, collect, stream } from './typed-call.ts';

export const PFS = 'pfs_v2.API';

export interface RepoRef {
  project: string;
  repo: string;
}

export interface BranchRef extends RepoRef {
  branch: string;
}

/** A commit named by id, or a branch head when `commitId` is '' and `branch` is set. */
export interface CommitRef extends RepoRef {
  commitId: string;
  branch?: string;
}

export interface FileRef extends CommitRef {
  path: string;
}

export function repoMessage({ project, repo }: RepoRef, type = 'user') {
  return { name: repo, type, project: { name: project } };
}

export function commitMessage(ref: CommitRef) {
  const repo = repoMessage(ref);
  return {
    repo,
    id: ref.commitId,
    ...(ref.branch ? { branch: { repo, name: ref.branch } } : {}),
  };
}

function fileMessage(ref: FileRef) {
  return { commit: commitMessage(ref), path: ref.path };
}

// Projects

export function listProjects(client: ApiClient, signal?: AbortSignal) {
  return collect(client, 'pfs_v2.API/ListProject', {}, signal);
}

export function inspectProject(client: ApiClient, project: string, signal?: AbortSignal) {
  return callOrNull(client, 'pfs_v2.API/InspectProject', { project: { name: project } }, signal);
}

export function createProject(
  client: ApiClient,
  args: { project: string; description?: string; update?: boolean },
) {
  return call(client, 'pfs_v2.API/CreateProject', {
    project: { name: args.project },
    description: args.description ?? '',
    update: args.update ?? false,
  });
}

export function deleteProject(client: ApiClient, project: string, force = false) {
  return call(client, 'pfs_v2.API/DeleteProject', { project: { name: project }, force });
}

export async function reposSummary(client: ApiClient, projects: string[], signal?: AbortSignal) {
  const response = await call(
    client,
    'pfs_v2.API/ReposSummary',
    { projects: projects.map((name) => ({ name })) },
    signal,
  );
  return response.summaries as ReposSummary[];
}

// Repos

export function listRepos(
  client: ApiClient,
  args: {
    projects: string[];
    type?: RepoType;
    /** One page of the platform's project/repo order (RepoPage); every repo without it. */
    page?: { pageSize: number; pageIndex: number };
  },
  signal?: AbortSignal,
) {
  return collect(
    client,
    'pfs_v2.API/ListRepo',
    {
      type: args.type ?? 'user',
      projects: args.projects.map((name) => ({ name })),
      ...(args.page
        ? {
            page: {
              order: 'PROJECT_REPO',
              pageSize: String(args.page.pageSize),
              pageIndex: String(args.page.pageIndex),
            },
          }
        : {}),
    },
    signal,
  );
}

export function inspectRepo(client: ApiClient, ref: RepoRef, signal?: AbortSignal) {
  return callOrNull(client, 'pfs_v2.API/InspectRepo', { repo: repoMessage(ref) }, signal);
}

export function createRepo(
  client: ApiClient,
  args: RepoRef & { description?: string; update?: boolean },
) {
  return call(client, 'pfs_v2.API/CreateRepo', {
    repo: repoMessage(args),
    description: args.description ?? '',
    update: args.update ?? false,
  });
}

export function deleteRepo(client: ApiClient, ref: RepoRef, force = false) {
  return call(client, 'pfs_v2.API/DeleteRepo', { repo: repoMessage(ref), force });
}

// Branches

export function listBranches(client: ApiClient, ref: RepoRef, signal?: AbortSignal) {
  return collect(client, 'pfs_v2.API/ListBranch', { repo: repoMessage(ref) }, signal);
}

export function createBranch(client: ApiClient, args: BranchRef & { headCommitId?: string }) {
  const repo = repoMessage(args);
  return call(client, 'pfs_v2.API/CreateBranch', {
    branch: { repo, name: args.branch },
    head: args.headCommitId ? { repo, id: args.headCommitId } : undefined,
  });
}

// Commits

export interface ListCommitsArgs extends RepoRef {
  /** Walk back from this commit or branch head. */
  to?: CommitRef;
  /** At most this many commits (0 = no limit). */
  number?: number;
  reverse?: boolean;
  all?: boolean;
  originKind?: OriginKind;
}

export function listCommits(client: ApiClient, args: ListCommitsArgs, signal?: AbortSignal) {
  return collect(
    client,
    'pfs_v2.API/ListCommit',
    {
      repo: repoMessage(args),
      to: args.to ? commitMessage(args.to) : undefined,
      number: String(args.number ?? 0),
      reverse: args.reverse ?? false,
      all: args.all ?? false,
      ...(args.originKind ? { originKind: args.originKind } : {}),
    },
    signal,
  );
}

export function inspectCommit(
  client: ApiClient,
  ref: CommitRef,
  wait?: CommitState,
  signal?: AbortSignal,
) {
  return callOrNull(
    client,
    'pfs_v2.API/InspectCommit',
    { commit: commitMessage(ref), ...(wait ? { wait } : {}) },
    signal,
  );
}

export function startCommit(
  client: ApiClient,
  args: BranchRef & { description?: string; parentCommitId?: string },
) {
  const repo = repoMessage(args);
  return call(client, 'pfs_v2.API/StartCommit', {
    branch: { repo, name: args.branch },
    parent: args.parentCommitId ? { repo, id: args.parentCommitId } : undefined,
    description: args.description ?? '',
  });
}

export function finishCommit(
  client: ApiClient,
  ref: CommitRef,
  args: { description?: string; error?: string; force?: boolean } = {},
) {
  return call(client, 'pfs_v2.API/FinishCommit', {
    commit: commitMessage(ref),
    description: args.description ?? '',
    error: args.error ?? '',
    force: args.force ?? false,
  });
}

// Files

export interface FilesPage {
  files: FileInfo[];
  /** Path to pass as `marker` for the next page; null on the last page. */
  nextMarker: string | null;
}

/**
 * One page of a folder listing. Asks for one entry more than `number` so that the last page is
 * known without an extra empty request.
 */
export async function listFilesPage(
  client: ApiClient,
  args: FileRef & { marker?: string | null; number: number },
  signal?: AbortSignal,
): Promise<FilesPage> {
  const commit = commitMessage(args);
  const files = await collect(
    client,
    'pfs_v2.API/ListFile',
    {
      file: { commit, path: args.path },
      paginationMarker: args.marker ? { commit, path: args.marker } : undefined,
      number: String(args.number + 1),
    },
    signal,
  );
  const hasMore = files.length > args.number;
  const page = hasMore ? files.slice(0, args.number) : files;
  return { files: page, nextMarker: hasMore ? (page[page.length - 1]?.file.path ?? null) : null };
}

export function inspectFile(client: ApiClient, ref: FileRef, signal?: AbortSignal) {
  return callOrNull(client, 'pfs_v2.API/InspectFile', { file: fileMessage(ref) }, signal);
}

export function globFile(
  client: ApiClient,
  ref: CommitRef & { pattern: string },
  signal?: AbortSignal,
) {
  return collect(
    client,
    'pfs_v2.API/GlobFile',
    { commit: commitMessage(ref), pattern: ref.pattern },
    signal,
  );
}

export function walkFile(
  client: ApiClient,
  args: FileRef & { number?: number },
  signal?: AbortSignal,
) {
  return collect(
    client,
    'pfs_v2.API/WalkFile',
    { file: fileMessage(args), number: String(args.number ?? 0) },
    signal,
  );
}

export function diffFile(
  client: ApiClient,
  args: { newFile: FileRef; oldFile?: FileRef; shallow?: boolean },
  signal?: AbortSignal,
) {
  return collect(
    client,
    'pfs_v2.API/DiffFile',
    {
      newFile: fileMessage(args.newFile),
      oldFile: args.oldFile ? fileMessage(args.oldFile) : undefined,
      shallow: args.shallow ?? false,
    },
    signal,
  );
}

/** A file's bytes through GetFile (a stream of base64 chunks). */
export async function getFileBytes(
  client: ApiClient,
  ref: FileRef,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream(
    client,
    'pfs_v2.API/GetFile',
    { file: fileMessage(ref) },
    signal,
  )) {
    // A BytesValue's JSON form is its value alone: the chunk's base64 string.
    chunks.push(base64ToBytes(chunk as unknown as string));
  }
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** ModifyFile: an NDJSON request body that starts with `setCommit`, then the operations. */
export function encodeModifyFile(ref: CommitRef, ops: ModifyFileOp[]): string {
  return [{ setCommit: commitMessage(ref) }, ...ops]
    .map((message) => JSON.stringify(message) + '\n')
    .join('');
}

export function modifyFile(
  client: ApiClient,
  ref: CommitRef,
  ops: ModifyFileOp[],
  signal?: AbortSignal,
) {
  return client.send<object>(PFS, 'ModifyFile', encodeModifyFile(ref, ops), signal);
}

/** The server's download URL for a file or folder (a folder downloads as a tar archive). */
export function fileUrl(
  args: { project: string; repo: string; commitId: string; path: string; download?: boolean },
  baseUrl = '',
): string {
  const segments = args.path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent);
  const base = [args.project, args.repo, args.commitId].map(encodeURIComponent).join('/');
  return `${baseUrl}/files/${base}/${segments.join('/')}${args.download ? '?download=1' : ''}`;
}

/**
 * The server's URL for one tar archive of a selection of files and folders (streamed by the
 * server; entries are named from the repo root).
 */
export function archiveUrl(
  args: { project: string; repo: string; commitId: string; paths: readonly string[] },
  baseUrl = '',
): string {
  const base = [args.project, args.repo, args.commitId].map(encodeURIComponent).join('/');
  const query = ['archive=tar', ...args.paths.map((path) => `path=${encodeURIComponent(path)}`)];
  return `${baseUrl}/files/${base}?${query.join('&')}`;
}

/**
 * Deletes paths in one new commit on a branch: StartCommit, ModifyFile (deleteFile per path),
 * FinishCommit. Resolves with the new commit's id.
 */
export async function deleteFilesInNewCommit(
  client: ApiClient,
  args: BranchRef & { paths: readonly string[]; description?: string },
): Promise<string> {
  const commit = await startCommit(client, {
    project: args.project,
    repo: args.repo,
    branch: args.branch,
    description: args.description ?? `Delete ${args.paths.join(', ')}`,
  });
  const ref: CommitRef = { project: args.project, repo: args.repo, commitId: commit.id };
  try {
    await modifyFile(
      client,
      ref,
      args.paths.map((path) => ({ deleteFile: { path } })),
    );
  } finally {
    await finishCommit(client, ref);
  }
  return commit.id;
}

/** The metadata picker of a user repo, as EditMetadata expects it. */
export function repoPicker({ project, repo }: RepoRef) {
  return { name: { project: { name: project }, name: repo, type: 'user' } };
}

// Commit search, squash / drop and storage check

/** One FindCommits line: a commit that changed the file, or (last) the commit the search ended on. */
export type FindCommitsLine = FindCommitsResponse;

/**
 * FindCommits: the commits that changed `path`, walking back from `start` (which is included),
 * at most `limit` found (0 = no limit). The stream ends with a `lastSearchedCommit` line.
 */
export function findCommits(
  client: ApiClient,
  args: { start: CommitRef; path: string; limit?: number },
  signal?: AbortSignal,
) {
  return collect(
    client,
    'pfs_v2.API/FindCommits',
    { start: commitMessage(args.start), filePath: args.path, limit: args.limit ?? 0 },
    signal,
  );
}

/**
 * SquashCommit: removes a finished commit and keeps its data in its children. `recursive` is
 * needed when the commit has downstream commits (they are squashed too).
 */
export function squashCommit(client: ApiClient, ref: CommitRef, recursive = false) {
  return call(client, 'pfs_v2.API/SquashCommit', { commit: commitMessage(ref), recursive });
}

/**
 * DropCommit: removes a finished commit without children and its data; a branch whose head it
 * was moves back to the parent. `recursive` drops its downstream commits too.
 */
export function dropCommit(client: ApiClient, ref: CommitRef, recursive = false) {
  return call(client, 'pfs_v2.API/DropCommit', { commit: commitMessage(ref), recursive });
}

export function squashCommitSet(client: ApiClient, commitSetId: string) {
  return call(client, 'pfs_v2.API/SquashCommitSet', { commitSet: { id: commitSetId } });
}

export function dropCommitSet(client: ApiClient, commitSetId: string) {
  return call(client, 'pfs_v2.API/DropCommitSet', { commitSet: { id: commitSetId } });
}

/** One Fsck line: a problem (`error`) or, with `fix`, a repair made (`fix`); the other is ''. */
export type FsckLine = FsckResponse;

/** Fsck: checks every file's blob (and dangling uploads); a healthy store streams nothing. */
export function fsck(client: ApiClient, args: { fix?: boolean } = {}, signal?: AbortSignal) {
  return collect(client, 'pfs_v2.API/Fsck', { fix: args.fix ?? false }, signal);
}
