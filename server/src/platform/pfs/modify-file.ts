import { createHash } from 'node:crypto';
import { failedPrecondition, invalidArgument, unimplemented } from '../../errors.ts';
import { readObject, readString } from '../../http/wire.ts';
import type { BlobStore, BlobWriter } from '../storage/blob-store.ts';
import { normalisePath } from './file-paths.ts';
import { readCommitRef, readFileRef, resolveCommitRef } from './pfs-requests.ts';
import type { NewFile, PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow } from './rows.ts';

/**
 * ModifyFile: a stream of setCommit / addFile / deleteFile / copyFile messages applied to an
 * open commit. Consecutive addFile messages for one path append (large files arrive in several
 * messages); bytes go to the blob store before the file row that names them is written.
 * Naming a branch whose head is finished opens a new commit there and finishes it at the end.
 */
export async function modifyFile(
  store: PfsStore,
  blobs: BlobStore,
  requests: AsyncIterable<unknown>,
  signal: AbortSignal,
): Promise<object> {
  let target: CommitRow | null = null;
  const autoFinish: CommitRow[] = [];
  const pending = new Map<string, PendingFile>();

  const requireTarget = (): CommitRow => {
    if (!target) throw invalidArgument('ModifyFile needs a setCommit message first');
    return target;
  };

  /**
   * Makes the pending blobs durable, then records all their files in one transaction. Small
   * files were kept in memory: each distinct content is written (and fsynced) once, so many
   * files with the same bytes cost one blob write.
   */
  async function flush(): Promise<void> {
    const files: NewFile[] = [];
    const written = new Map<string, number>();
    for (const [path, file] of pending) {
      pending.delete(path);
      if (file.writer) {
        const blob = await file.writer.finish();
        files.push({ path, hash: blob.hash, sizeBytes: blob.sizeBytes });
        continue;
      }
      const bytes = Buffer.concat(file.chunks);
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (!written.has(hash)) {
        if (!(await blobs.has(hash))) await blobs.writeBytes(bytes);
        written.set(hash, bytes.length);
      }
      files.push({ path, hash, sizeBytes: bytes.length });
    }
    if (files.length === 0) return;
    const commit = requireTarget();
    store.transaction(() => {
      for (const file of files) store.putFile(commit, file);
    });
  }

  /** Appends bytes to a path's pending file; past SMALL_FILE_BYTES it moves to a temp file. */
  async function append(path: string, bytes: Buffer): Promise<void> {
    let file = pending.get(path);
    if (!file) {
      file = { chunks: [], size: 0, writer: null };
      pending.set(path, file);
    }
    if (!file.writer && file.size + bytes.length > SMALL_FILE_BYTES) {
      file.writer = await blobs.createWriter();
      for (const chunk of file.chunks) await file.writer.write(chunk);
      file.chunks = [];
    }
    if (file.writer) await file.writer.write(bytes);
    else file.chunks.push(bytes);
    file.size += bytes.length;
  }

  try {
    for await (const raw of requests) {
      if (signal.aborted) throw invalidArgument('the request was cancelled');
      const message = readObject(raw, 'request');
      if (message.setCommit !== undefined) {
        await flush();
        target = openCommitFor(store, message.setCommit, autoFinish);
      } else if (message.addFile !== undefined) {
        const addFile = readObject(message.addFile, 'addFile');
        if (addFile.url !== undefined && addFile.url !== null)
          throw unimplemented('addFile.url is not implemented yet');
        const path = normalisePath(readString(addFile.path, 'addFile.path'));
        if (path === '/') throw invalidArgument('addFile.path must name a file');
        requireTarget();
        await append(path, Buffer.from(readString(addFile.raw, 'addFile.raw'), 'base64'));
      } else if (message.deleteFile !== undefined) {
        await flush();
        const path = normalisePath(
          readString(readObject(message.deleteFile, 'deleteFile').path, 'deleteFile.path'),
        );
        store.deleteFile(requireTarget(), path);
      } else if (message.copyFile !== undefined) {
        await flush();
        const copy = readObject(message.copyFile, 'copyFile');
        const dst = normalisePath(readString(copy.dst, 'copyFile.dst'));
        const src = readFileRef(copy.src, 'copyFile.src');
        const source = resolveCommitRef(store, src.commit).commit;
        store.copyFile(requireTarget(), dst, source, src.path);
      } else {
        throw invalidArgument(
          'each ModifyFile message needs setCommit, addFile, deleteFile or copyFile',
        );
      }
    }
    await flush();
    for (const commit of autoFinish) store.finishCommit(commit, '', '');
    return {};
  } catch (error) {
    await Promise.all([...pending.values()].map((file) => file.writer?.abort()));
    throw error;
  }
}

/** Files up to this size wait in memory until the flush (one blob write per distinct content). */
const SMALL_FILE_BYTES = 256 * 1024;

interface PendingFile {
  chunks: Buffer[];
  size: number;
  /** Set once the file outgrew memory. */
  writer: BlobWriter | null;
}

function openCommitFor(store: PfsStore, value: unknown, autoFinish: CommitRow[]): CommitRow {
  const ref = readCommitRef(value, 'setCommit');
  const repo = store.getRepo(ref.repo);
  const branchName = ref.branch || (ref.id && store.findBranch(repo, ref.id) ? ref.id : '');
  const namesBranchOnly = branchName !== '' && (ref.id === '' || ref.id === branchName);
  if (namesBranchOnly) {
    const branch = store.findBranch(repo, branchName);
    const head = branch?.head_rowid ? store.commitByRowid(branch.head_rowid) : null;
    if (head && isOpen(head)) return head;
    const commit = store.startCommit(repo, branchName, null, '');
    autoFinish.push(commit);
    return commit;
  }
  const commit = store.resolveCommit(repo, ref.id, ref.branch);
  if (!isOpen(commit)) {
    throw failedPrecondition(
      `commit ${commit.id} is finished: files can only be written to an open commit`,
    );
  }
  return commit;
}
