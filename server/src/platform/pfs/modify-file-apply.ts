// Applying a ModifyFile's staged operations (modify-file.ts) with Pachyderm's semantics: addFile
// appends to the file (of its datum) already at the path — in the commit written to, or in the
// parent a new commit starts from; copyFile replaces each file it copies (or appends, with
// `append`); deleteFile removes a file, or a folder's files.
//
// Files are whole blobs here, so an append makes a new blob of the old bytes and the new ones:
// that is I/O, which cannot happen inside the SQLite transaction. So the writes are planned first
// (which files each operation appends to, read from the database), the appended blobs written,
// and then, in one transaction, the plan is checked against the commits again (an open commit's
// revision, a branch's head) and replayed; if another writer changed them meanwhile, it is
// planned again. An error or a disconnect before that transaction leaves no trace.
import { ApiError, Code, notFound } from '../../errors.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { asDirPath } from './file-paths.ts';
import type { LandedFile } from './pending-files.ts';
import type { PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow, type RepoRow } from './rows.ts';

/** One staged operation of a ModifyFile request. */
export type StagedOp =
  | { kind: 'add'; file: LandedFile }
  /** A file, or a folder's files (`path` ending in "/"). */
  | { kind: 'delete'; path: string; datum: string | null }
  | {
      kind: 'copy';
      dst: string;
      source: CommitRow;
      sourcePath: string;
      append: boolean;
      datum: string;
    };

/** A setCommit and the operations that follow it. */
export interface StagedTarget {
  repo: RepoRow;
  /** Set when setCommit named only a branch: its open head, or else a new commit on it. */
  branch: string | null;
  /** Set when setCommit named a commit (it must be open). */
  commit: CommitRow | null;
  ops: StagedOp[];
}

/** A file as planned: its bytes are these blobs one after the other. */
interface Planned {
  parts: string[];
  size: number;
  datum: string;
}

/** The commit a target writes to, as planned: an open one, or a new one on a branch. */
interface Destination {
  repo: RepoRow;
  /** The open commit written to; null: a new commit on `branch`, started from `base`. */
  open: CommitRow | null;
  branch: string;
  /** The branch head a new commit's parent is (null: none), and the commit its files are from. */
  head: CommitRow | null;
  base: CommitRow | null;
  /** Planned files by path (null: deleted), and folders deleted (their files of a datum). */
  known: Map<string, Planned | null>;
  deletedFolders: Array<{ prefix: string; datum: string | null }>;
  /** Set in the transaction. */
  commit: CommitRow | null;
}

/** One write to replay in the transaction. */
type Write =
  | { kind: 'put'; destination: Destination; path: string; file: Planned }
  | { kind: 'delete'; destination: Destination; path: string; datum: string | null };

/** How many times the writes are planned again when other writers keep changing the commits. */
const maxAttempts = 20;

/** The repos a ModifyFile is being applied to: one apply per repo at a time (by repo id). */
const applying = new Map<number, Promise<void>>();

/**
 * Runs `work` once no other apply holds any of these repos. Appends from concurrent requests then
 * plan one after the other instead of invalidating each other's plans; writers that take no
 * lock (uploads, pipelines) are still caught by the plan's check.
 */
async function withRepos<T>(repoIds: number[], work: () => Promise<T>): Promise<T> {
  const ids = [...new Set(repoIds)].sort((a, b) => a - b);
  for (;;) {
    const busy = ids.map((id) => applying.get(id)).filter((held) => held !== undefined);
    if (busy.length === 0) break;
    await Promise.all(busy);
  }
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  for (const id of ids) applying.set(id, held);
  try {
    return await work();
  } finally {
    for (const id of ids) applying.delete(id);
    release();
  }
}

/** Applies every staged operation in one transaction; announces the commits it finished. */
export async function applyStaged(
  store: PfsStore,
  blobs: BlobStore,
  targets: StagedTarget[],
): Promise<void> {
  await withRepos(
    targets.map((target) => target.repo.id),
    () => applyPlanned(store, blobs, targets),
  );
}

async function applyPlanned(
  store: PfsStore,
  blobs: BlobStore,
  targets: StagedTarget[],
): Promise<void> {
  // Small files received are still in memory: written only as needed (alone, or joined).
  const inMemory = new Map<string, Buffer>();
  for (const target of targets)
    for (const op of target.ops)
      if (op.kind === 'add' && op.file.bytes) inMemory.set(op.file.hash, op.file.bytes);
  for (let attempt = 1; ; attempt++) {
    const plan = planWrites(store, targets);
    const joined = await writeBlobs(blobs, inMemory, plan.writes);
    const finished = store.transaction(() => {
      if (!plan.unchanged()) return null;
      const opened: CommitRow[] = [];
      for (const destination of plan.destinations) {
        if (destination.open) {
          destination.commit = store.commitByRowid(destination.open.rowid);
        } else {
          destination.commit = store.startCommit(destination.repo, destination.branch, null, '');
          opened.push(destination.commit);
        }
      }
      for (const write of plan.writes) {
        const commit = write.destination.commit as CommitRow;
        if (write.kind === 'delete') {
          store.deleteFile(commit, write.path, write.datum, true);
          continue;
        }
        const { parts, size, datum } = write.file;
        const hash = parts.length === 1 ? (parts[0] as string) : joined.get(parts.join(','));
        store.putFile(
          commit,
          { path: write.path, hash: hash as string, sizeBytes: size, datum },
          { collisions: 'record' },
        );
      }
      return opened.map((commit) => store.finishWithoutEvents(commit));
    });
    if (finished) {
      store.announceFinished(finished);
      return;
    }
    if (attempt >= maxAttempts)
      throw new ApiError(
        Code.UNAVAILABLE,
        'the commit kept changing while this ModifyFile was being applied: try again',
      );
  }
}

/** Plans the writes of every target against the commits as they are now. */
function planWrites(
  store: PfsStore,
  targets: StagedTarget[],
): { destinations: Destination[]; writes: Write[]; unchanged: () => boolean } {
  const destinations = new Map<string, Destination>();
  /** Open commits read (written to, or copied from): their revision when planned. */
  const revisions = new Map<number, number>();
  const writes: Write[] = [];

  const noteOpen = (commit: CommitRow) => {
    const current = store.commitByRowid(commit.rowid);
    if (current && isOpen(current) && !revisions.has(current.rowid))
      revisions.set(current.rowid, store.commitRevision(current));
  };

  function destinationOf(target: StagedTarget): Destination {
    let open: CommitRow | null = null;
    let head: CommitRow | null = null;
    if (target.branch !== null) {
      const branch = store.findBranch(target.repo, target.branch);
      head = branch?.head_rowid ? store.commitByRowid(branch.head_rowid) : null;
      if (head && isOpen(head)) open = head;
    } else {
      open = store.commitByRowid((target.commit as CommitRow).rowid);
      if (!open) throw store.finishedError(target.commit as CommitRow);
      if (!isOpen(open)) throw store.finishedError(open);
    }
    const key = open ? `c${open.rowid}` : `b${target.repo.id}/${target.branch}`;
    let destination = destinations.get(key);
    if (!destination) {
      if (open) noteOpen(open);
      destination = {
        repo: target.repo,
        open,
        branch: target.branch ?? '',
        head,
        base: open ? null : store.baseOf(head),
        known: new Map(),
        deletedFolders: [],
        commit: null,
      };
      destinations.set(key, destination);
    }
    return destination;
  }

  function lookup(destination: Destination, path: string): Planned | null {
    if (destination.known.has(path)) return destination.known.get(path) ?? null;
    const from = destination.open ?? destination.base;
    const row = from ? store.findFileAt(from, path) : undefined;
    let planned: Planned | null = row
      ? { parts: [row.hash], size: row.size_bytes, datum: row.datum }
      : null;
    if (
      planned &&
      destination.deletedFolders.some(
        (folder) =>
          path.startsWith(folder.prefix) &&
          (folder.datum === null || folder.datum === planned?.datum),
      )
    )
      planned = null;
    destination.known.set(path, planned);
    return planned;
  }

  function add(destination: Destination, path: string, file: Planned, append: boolean): void {
    const current = append ? lookup(destination, path) : null;
    const planned: Planned =
      current && current.datum === file.datum
        ? {
            parts: [...current.parts, ...file.parts],
            size: current.size + file.size,
            datum: file.datum,
          }
        : file;
    destination.known.set(path, planned);
    writes.push({ kind: 'put', destination, path, file: planned });
  }

  /** A file (a path without a trailing slash), or a folder's files (`path` ending in "/"). */
  function remove(destination: Destination, path: string, datum: string | null): void {
    writes.push({ kind: 'delete', destination, path, datum });
    if (!path.endsWith('/')) {
      const file = lookup(destination, path);
      if (file && (datum ?? '') === file.datum) destination.known.set(path, null);
      return;
    }
    const prefix = path;
    for (const [known, planned] of destination.known) {
      if (planned && known.startsWith(prefix) && (datum === null || datum === planned.datum))
        destination.known.set(known, null);
    }
    destination.deletedFolders.push({ prefix, datum });
  }

  for (const target of targets) {
    const destination = destinationOf(target);
    for (const op of target.ops) {
      if (op.kind === 'add') {
        const { path, hash, sizeBytes, datum } = op.file;
        add(destination, path, { parts: [hash], size: sizeBytes, datum }, true);
      } else if (op.kind === 'delete') {
        remove(destination, op.path, op.datum);
      } else {
        const source = store.commitByRowid(op.source.rowid) as CommitRow | undefined;
        if (!source) throw notFound(`commit ${op.source.id} was deleted`);
        noteOpen(source);
        // Each file copied replaces the one at its path (or is appended to it).
        for (const [path, row] of copiedFiles(store, source, op.sourcePath, op.dst)) {
          const file = { parts: [row.hash], size: row.size_bytes, datum: op.datum };
          add(destination, path, file, op.append);
        }
      }
    }
  }

  const planned = [...destinations.values()];
  return {
    destinations: planned,
    writes,
    unchanged() {
      for (const [rowid, revision] of revisions) {
        const commit = store.commitByRowid(rowid);
        if (!commit || store.commitRevision(commit) !== revision) return false;
      }
      for (const destination of planned) {
        if (destination.open) continue;
        const branch = store.findBranch(destination.repo, destination.branch);
        const head = branch?.head_rowid ? store.commitByRowid(branch.head_rowid) : null;
        if ((head?.rowid ?? null) !== (destination.head?.rowid ?? null)) return false;
        if (head && isOpen(head)) return false;
      }
      return true;
    },
  };
}

/** [destination path, source row] of the files a copy writes (one file, or a folder's). */
function copiedFiles(
  store: PfsStore,
  source: CommitRow,
  sourcePath: string,
  dst: string,
): Array<[string, { hash: string; size_bytes: number }]> {
  const found = store.getFile(source, sourcePath);
  if (found.type === 'FILE') return [[dst, found]];
  const base = asDirPath(found.path);
  const target = dst === '/' ? '/' : dst + '/';
  return store
    .listSubtree(source, base)
    .filter((row) => row.type === 'FILE')
    .map((row) => [target + row.path.slice(base.length), row]);
}

/**
 * Writes the blobs the planned writes need: each file received in memory that is written alone,
 * and each appended file's parts joined (by the parts' hashes joined with ",", in the answer).
 */
async function writeBlobs(
  blobs: BlobStore,
  inMemory: Map<string, Buffer>,
  writes: Write[],
): Promise<Map<string, string>> {
  const joined = new Map<string, string>();
  for (const write of writes) {
    if (write.kind !== 'put') continue;
    const { parts } = write.file;
    if (parts.length === 1) {
      const bytes = inMemory.get(parts[0] as string);
      if (bytes) {
        if (!(await blobs.has(parts[0] as string))) await blobs.writeBytes(bytes);
        inMemory.delete(parts[0] as string);
      }
      continue;
    }
    const key = parts.join(',');
    if (joined.has(key)) continue;
    const blob = await blobs.writeStream(
      (async function* () {
        for (const part of parts) {
          const bytes = inMemory.get(part);
          if (bytes) yield bytes;
          else yield* blobs.read(part);
        }
      })(),
    );
    joined.set(key, blob.hash);
  }
  return joined;
}
