import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, Code, failedPrecondition, invalidArgument } from '../../errors.ts';
import { pfs_v2 } from '@ivory/api/proto';
import { int64 } from '../wire.ts';
import type { MethodRegistry } from '../platform.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { typedUnary } from '../typed-method.ts';
import { commitRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';

/** The setting that lists the folders Egress may write into. */
export const EGRESS_ROOTS_ENV = 'IVORY_EGRESS_ROOTS';
/** The most one Egress call may take, start to end. */
export const EGRESS_DEADLINE_MS = 5 * 60 * 1000;

export interface EgressOptions {
  /** Absolute folders Egress may write into (IVORY_EGRESS_ROOTS); none = Egress refused. */
  roots: readonly string[];
  deadlineMs?: number;
}

/**
 * Egress {commit, objectStorage: {url}} → {objectStorage: {bytesWritten}}: copies every file of
 * a commit out of the platform. The embedded platform supports `file://<absolute folder>` URLs
 * naming a folder inside one of the roots of IVORY_EGRESS_ROOTS (none by default: 7). Each file
 * is written at its repo path under that folder, creating folders as needed and replacing files
 * already there. Nothing on the way is followed if it is a symlink, and only regular files are
 * replaced, so no write lands outside the root (7). The whole call has a deadline (4 when
 * passed). Other schemes (s3://, gs://, …) and sqlDatabase targets answer 3 (INVALID_ARGUMENT)
 * with a message saying only file:// is supported. A commit that is not finished answers 9.
 */
export function registerEgressApi(
  methods: MethodRegistry,
  deps: { store: PfsStore; blobs: BlobStore; egress: EgressOptions },
): void {
  const { store, blobs } = deps;
  const deadlineMs = deps.egress.deadlineMs ?? EGRESS_DEADLINE_MS;
  methods.set(
    'pfs_v2.API/Egress',
    typedUnary(pfs_v2.EgressRequestSchema, async (req, signal) => {
      if (req.target.case === 'sqlDatabase')
        throw invalidArgument(
          'Egress to a SQL database is not supported by the embedded platform (only objectStorage with a file:// URL)',
        );
      const url = req.target.case === 'objectStorage' ? req.target.value.url : '';
      if (!url) throw invalidArgument('objectStorage.url is required (a file:// URL)');
      const target = folderOf(url);
      const { root, relative: targetInRoot } = await allowedRoot(target, deps.egress.roots);
      const { commit } = resolveCommitRef(store, commitRefOf(req.commit));
      if (commit.finished_at === null)
        throw failedPrecondition(
          `commit ${commit.id} is not finished: egress needs a finished commit`,
        );
      const deadline = Date.now() + deadlineMs;
      const check = () => {
        if (signal.aborted) throw invalidArgument('the request was cancelled');
        if (Date.now() > deadline)
          throw new ApiError(
            Code.DEADLINE_EXCEEDED,
            `Egress passed its deadline of ${deadlineMs} ms`,
          );
      };
      const folders = new FolderMaker(root);
      const base = await folders.ensure(targetInRoot);
      let bytesWritten = 0;
      for (const row of store.allFiles(commit)) {
        check();
        if (row.type !== 'FILE') continue;
        const relative = path.relative(base, path.resolve(base, `.${row.path}`));
        if (!relative || relative.startsWith('..') || path.isAbsolute(relative))
          throw invalidArgument(`file ${row.path} would be written outside ${target}`);
        const folder = await folders.ensure(
          path.relative(root, path.join(base, path.dirname(relative))),
        );
        const handle = await openRegularFile(path.join(folder, path.basename(relative)));
        try {
          if (row.size_bytes > 0) {
            for await (const chunk of blobs.read(row.hash)) {
              check();
              const bytes = chunk as Buffer;
              let offset = 0;
              while (offset < bytes.length) {
                const { bytesWritten: n } = await handle.write(
                  bytes,
                  offset,
                  bytes.length - offset,
                );
                offset += n;
              }
              bytesWritten += bytes.length;
            }
          }
        } finally {
          await handle.close();
        }
      }
      return { objectStorage: { bytesWritten: int64(bytesWritten) } };
    }),
  );
}

/** The absolute folder a file:// URL names; 3 for any other scheme. */
function folderOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(`objectStorage.url ${url} is not a URL (expected file:///<folder>)`);
  }
  if (parsed.protocol !== 'file:')
    throw invalidArgument(
      `Egress to ${parsed.protocol}// is not supported: the embedded platform has no object-storage ` +
        'client (only file:// URLs, a folder on the server)',
    );
  if (parsed.host && parsed.host !== 'localhost')
    throw invalidArgument(`file:// URLs must name a local folder (host ${parsed.host} given)`);
  return path.resolve(fileURLToPath(parsed));
}

const refused = (message: string) => new ApiError(Code.PERMISSION_DENIED, message);

/** The configured root (its real path) that holds `target`, and where; 7 when there is none. */
async function allowedRoot(
  target: string,
  roots: readonly string[],
): Promise<{ root: string; relative: string }> {
  if (roots.length === 0)
    throw refused(
      `Egress to file:// is off: list the folders it may write into in ${EGRESS_ROOTS_ENV}`,
    );
  for (const root of roots) {
    const relative = path.relative(path.resolve(root), target);
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    try {
      return { root: await realpath(root), relative };
    } catch {
      throw refused(`the egress root ${root} does not exist`);
    }
  }
  throw refused(`${target} is not inside a folder of ${EGRESS_ROOTS_ENV}`);
}

/**
 * Creates folders under a root one name at a time, never following a symlink: an existing
 * entry on the way must be a real folder.
 */
class FolderMaker {
  private readonly made = new Set<string>();
  constructor(private readonly root: string) {}

  /** The folder at `relative` (inside the root), created as needed. */
  async ensure(relative: string): Promise<string> {
    let current = this.root;
    for (const name of relative.split(path.sep).filter((part) => part && part !== '.')) {
      if (name === '..') throw refused(`${relative} leaves the egress root`);
      current = path.join(current, name);
      if (this.made.has(current)) continue;
      let stats;
      try {
        stats = await lstat(current);
      } catch {
        await mkdir(current).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        stats = await lstat(current);
      }
      if (!stats.isDirectory() || stats.isSymbolicLink())
        throw refused(`${current} is not a folder (symlinks are not followed)`);
      this.made.add(current);
    }
    return current;
  }
}

/** Opens a file for writing without following a symlink; only a regular file is replaced. */
async function openRegularFile(file: string) {
  let handle;
  try {
    handle = await open(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o644,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR')
      throw refused(`${file} is not a regular file (symlinks are not followed)`);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw refused(`${file} is not a regular file`);
    await handle.truncate(0);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
