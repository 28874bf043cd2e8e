import type { pfs_v2 } from '@ivory/api/proto';
import { ApiError, invalidArgument, notFound, unimplemented } from '../../errors.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { MemberRow } from './file-sets.ts';
import { normalisePath } from './file-paths.ts';
import { PendingFiles } from './pending-files.ts';
import { fileRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';
import type { CommitRow } from './rows.ts';

/** One staged member: bytes already in the blob store, or a copy resolved when the set is made. */
type StagedMember =
  | { kind: 'put'; file: MemberRow }
  | { kind: 'copy'; dst: string; source: CommitRow; sourcePath: string };

/**
 * CreateFileSet: a client stream of ModifyFileRequest messages (the JSON and binary forms
 * ModifyFile takes) making a new file set, answered {fileSetId}. As in pachd the stream names no
 * commit: setCommit is refused (3); addFile (raw bytes) and copyFile (a file or a folder of a
 * commit, read when the set is made) give the set's members, a later one at a path replacing an
 * earlier one (consecutive addFiles to one path append). deleteFile answers 12: pachd's file sets
 * can carry deletions that AddFileSet applies to the commit, Ivory's hold files only (delete in
 * the commit with ModifyFile). addFile.url and copyFile.append answer 12 too.
 *
 * All or nothing, like ModifyFile: bytes go to the blob store while the stream is read
 * (invisible until a set names them), and the set is stored in one transaction after the last
 * message; an error or a disconnect before that creates no set. The set expires after the
 * default TTL (10 minutes) unless renewed.
 */
export async function createFileSet(
  deps: {
    store: PfsStore;
    blobs: BlobStore;
    /** Stores a set with these members (a later one at a path wins); answers its id. */
    saveSet: (members: Iterable<MemberRow>) => string;
  },
  requests: AsyncIterable<pfs_v2.ModifyFileRequest>,
  signal: AbortSignal,
): Promise<{ fileSetId: string }> {
  const { store, blobs, saveSet } = deps;
  const staged: StagedMember[] = [];
  const pending = new PendingFiles<null>(blobs);

  /** Makes the pending files durable blobs and stages them as members. */
  async function flush(): Promise<void> {
    for (const { file } of await pending.land())
      staged.push({
        kind: 'put',
        file: { path: file.path, hash: file.hash, size_bytes: file.sizeBytes },
      });
  }

  const endWrite = blobs.beginWrite();
  try {
    for await (const { body } of requests) {
      if (signal.aborted) throw invalidArgument('the request was cancelled');
      switch (body.case) {
        case 'setCommit':
          throw invalidArgument(
            'CreateFileSet takes no setCommit: a file set belongs to no commit (AddFileSet adds it to one)',
          );
        case 'addFile': {
          const { source } = body.value;
          if (source.case === 'url') throw unimplemented('addFile.url is not implemented yet');
          const path = normalisePath(body.value.path);
          if (path === '/') throw invalidArgument('addFile.path must name a file');
          const raw = source.value?.value ?? new Uint8Array(0);
          await pending.append(null, path, Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
          break;
        }
        case 'deleteFile':
          throw unimplemented(
            'CreateFileSet: deleteFile is not supported: file sets here hold files, not deletions ' +
              '(delete the files in the commit with ModifyFile)',
          );
        case 'copyFile': {
          if (body.value.append)
            throw unimplemented('CreateFileSet: copyFile.append is not supported');
          await flush();
          const dst = normalisePath(body.value.dst);
          const src = fileRefOf(body.value.src);
          const source = resolveCommitRef(store, src.commit).commit;
          const found = store.getFile(source, src.path);
          if (found.type === 'FILE' && dst === '/')
            throw invalidArgument('copyFile.dst must name a file when copyFile.src is a file');
          staged.push({ kind: 'copy', dst, source, sourcePath: src.path });
          break;
        }
        default:
          throw invalidArgument(
            'each CreateFileSet message needs addFile or copyFile (or deleteFile)',
          );
      }
    }
    if (signal.aborted) throw invalidArgument('the request was cancelled');
    await flush();
    if (signal.aborted) throw invalidArgument('the request was cancelled');
    // Copies are read here, in the transaction that stores the set: what they name cannot be
    // deleted in between.
    const fileSetId = store.transaction(() => {
      const members = new Map<string, MemberRow>();
      for (const member of staged) {
        if (member.kind === 'put') members.set(member.file.path, member.file);
        else for (const file of copiedFiles(store, member)) members.set(file.path, file);
      }
      return saveSet(members.values());
    });
    return { fileSetId };
  } catch (error) {
    await pending.abort();
    if (signal.aborted && !(error instanceof ApiError))
      throw invalidArgument('the request was cancelled: the client went away');
    throw error;
  } finally {
    endWrite();
  }
}

/** The files a staged copy puts in the set: the source file, or every file under the folder. */
function copiedFiles(
  store: PfsStore,
  copy: { dst: string; source: CommitRow; sourcePath: string },
): MemberRow[] {
  const source = store.commitByRowid(copy.source.rowid) as CommitRow | undefined;
  if (!source)
    throw notFound(`commit ${copy.source.id} was deleted while the file set was being made`);
  const found = store.getFile(source, copy.sourcePath);
  if (found.type === 'FILE')
    return [{ path: copy.dst, hash: found.hash, size_bytes: found.size_bytes }];
  const base = found.path;
  const target = copy.dst === '/' ? '/' : copy.dst + '/';
  return store
    .listSubtree(source, base)
    .filter((row) => row.type === 'FILE')
    .map((row) => ({
      path: target + row.path.slice(base.length),
      hash: row.hash,
      size_bytes: row.size_bytes,
    }));
}
