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
  const pending = new Map<string, BlobWriter>();

  const requireTarget = (): CommitRow => {
    if (!target) throw invalidArgument('ModifyFile needs a setCommit message first');
    return target;
  };

  /** Makes the pending blobs durable, then records all their files in one transaction. */
  async function flush(): Promise<void> {
    const files: NewFile[] = [];
    for (const [path, writer] of pending) {
      pending.delete(path);
      const blob = await writer.finish();
      files.push({ path, hash: blob.hash, sizeBytes: blob.sizeBytes });
    }
    if (files.length === 0) return;
    const commit = requireTarget();
    store.transaction(() => {
      for (const file of files) store.putFile(commit, file);
    });
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
        const bytes = Buffer.from(readString(addFile.raw, 'addFile.raw'), 'base64');
        let writer = pending.get(path);
        if (!writer) {
          writer = await blobs.createWriter();
          pending.set(path, writer);
        }
        await writer.write(bytes);
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
    await Promise.all([...pending.values()].map((writer) => writer.abort()));
    throw error;
  }
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
