import { create } from '@bufbuild/protobuf';
import { BytesValueSchema } from '@bufbuild/protobuf/wkt';
import { pfs_v2 } from '@ivory/api/proto';
import { ApiError, failedPrecondition, invalidArgument, unimplemented } from '../../errors.ts';
import { messageFromJson } from '../typed-method.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { normalisePath } from './file-paths.ts';
import { PendingFiles } from './pending-files.ts';
import { commitRefOf, fileRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { NewFile, PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow, type RepoRow } from './rows.ts';

type ModifyFileRequest = pfs_v2.ModifyFileRequest;

/** One staged operation of a ModifyFile request (applied only once the whole stream is read). */
type StagedOp =
  | { kind: 'put'; file: NewFile }
  | { kind: 'delete'; path: string }
  | { kind: 'copy'; dst: string; source: CommitRow; sourcePath: string };

/** A setCommit and the operations that follow it. */
interface StagedTarget {
  repo: RepoRow;
  /** Set when setCommit named only a branch: its open head, or else a new commit on it. */
  branch: string | null;
  /** Set when setCommit named a commit (it must be open). */
  commit: CommitRow | null;
  ops: StagedOp[];
}

/**
 * ModifyFile: a stream of setCommit / addFile / deleteFile / copyFile messages. The request is
 * atomic: bytes go to the blob store while the stream is read (content-addressed, invisible
 * until a file row names them), the operations are staged in memory, and only after the last
 * message are they applied, all in one SQLite transaction. An error, a disconnect or a crash
 * before that leaves no trace (unreferenced blobs are reclaimed by the blob sweeper).
 *
 * A setCommit naming only a branch writes into that branch's open commit if it has one
 * (StartCommit'ed by the caller), or else into a new commit that the same transaction
 * finishes — so concurrent writers to one branch each get their own commit, in the order their
 * requests end, and none fails because another finished first. Naming a finished commit is 9.
 */
export async function modifyFile(
  store: PfsStore,
  blobs: BlobStore,
  requests: AsyncIterable<ModifyFileRequest>,
  signal: AbortSignal,
): Promise<object> {
  const targets: StagedTarget[] = [];
  let target: StagedTarget | null = null;
  const pending = new PendingFiles<StagedTarget>(blobs);

  const requireTarget = (): StagedTarget => {
    if (!target) throw invalidArgument('ModifyFile needs a setCommit message first');
    return target;
  };

  /** Makes the pending files durable blobs and stages them with the target each belongs to. */
  async function flush(): Promise<void> {
    for (const { owner, file } of await pending.land()) owner.ops.push({ kind: 'put', file });
  }

  const endWrite = blobs.beginWrite();
  try {
    for await (const { body } of requests) {
      if (signal.aborted) throw invalidArgument('the request was cancelled');
      switch (body.case) {
        case 'setCommit':
          await flush();
          target = stageTarget(store, body.value);
          targets.push(target);
          break;
        case 'addFile': {
          const { source } = body.value;
          if (source.case === 'url') throw unimplemented('addFile.url is not implemented yet');
          const path = normalisePath(body.value.path);
          if (path === '/') throw invalidArgument('addFile.path must name a file');
          const owner = requireTarget();
          const raw = source.value?.value ?? new Uint8Array(0);
          await pending.append(
            owner,
            path,
            Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
          );
          break;
        }
        case 'deleteFile': {
          await flush();
          const path = normalisePath(body.value.path);
          requireTarget().ops.push({ kind: 'delete', path });
          break;
        }
        case 'copyFile': {
          await flush();
          const dst = normalisePath(body.value.dst);
          const src = fileRefOf(body.value.src);
          const source = resolveCommitRef(store, src.commit).commit;
          store.getFile(source, src.path);
          requireTarget().ops.push({ kind: 'copy', dst, source, sourcePath: src.path });
          break;
        }
        default:
          throw invalidArgument(
            'each ModifyFile message needs setCommit, addFile, deleteFile or copyFile',
          );
      }
    }
    if (signal.aborted) throw invalidArgument('the request was cancelled');
    await flush();
    if (signal.aborted) throw invalidArgument('the request was cancelled');
    applyStaged(store, targets);
    return {};
  } catch (error) {
    await pending.abort();
    // A client that went away breaks the body stream: that is a cancellation, not a fault.
    if (signal.aborted && !(error instanceof ApiError))
      throw invalidArgument('the request was cancelled: the client went away');
    throw error;
  } finally {
    endWrite();
  }
}

/** Reads a setCommit; a named commit must exist and be open now (and again when applied). */
function stageTarget(store: PfsStore, value: pfs_v2.Commit): StagedTarget {
  const ref = commitRefOf(value);
  const repo = store.getRepo(ref.repo);
  const branchName = ref.branch || (ref.id && store.findBranch(repo, ref.id) ? ref.id : '');
  const namesBranchOnly = branchName !== '' && (ref.id === '' || ref.id === branchName);
  if (namesBranchOnly) return { repo, branch: branchName, commit: null, ops: [] };
  const commit = store.resolveCommit(repo, ref.id, ref.branch);
  assertOpen(commit);
  return { repo, branch: null, commit, ops: [] };
}

function assertOpen(commit: CommitRow): void {
  if (!isOpen(commit)) {
    throw failedPrecondition(
      `commit ${commit.id} is finished: files can only be written to an open commit`,
    );
  }
}

/** Applies every staged operation in one transaction; announces the commits it finished. */
function applyStaged(store: PfsStore, targets: StagedTarget[]): void {
  const opened: CommitRow[] = [];
  const finished = store.transaction(() => {
    for (const staged of targets) {
      let commit: CommitRow;
      if (staged.branch !== null) {
        const branch = store.findBranch(staged.repo, staged.branch);
        const head = branch?.head_rowid ? store.commitByRowid(branch.head_rowid) : null;
        if (head && isOpen(head)) {
          commit = head;
        } else {
          commit = store.startCommit(staged.repo, staged.branch, null, '');
          opened.push(commit);
        }
      } else {
        commit = store.commitByRowid((staged.commit as CommitRow).rowid);
        assertOpen(commit);
      }
      for (const op of staged.ops) {
        if (op.kind === 'put') store.putFile(commit, op.file);
        else if (op.kind === 'delete') store.deleteFile(commit, op.path);
        else store.copyFile(commit, op.dst, op.source, op.sourcePath);
      }
    }
    return opened.map((commit) => store.finishWithoutEvents(commit));
  });
  store.announceFinished(finished);
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One ModifyFile request from the gateway's JSON (NDJSON lines): protobuf JSON, with an addFile's
 * `raw` (the bulk of an upload, base64) decoded by Node's native base64 — protobuf-es decodes
 * base64 in JavaScript, several times slower. Anything else goes through fromJson as is.
 */
export function modifyFileRequestFromJson(json: unknown): ModifyFileRequest {
  const schema = pfs_v2.ModifyFileRequestSchema;
  const key = isObject(json)
    ? (['addFile', 'add_file'] as const).find((k) => k in json)
    : undefined;
  const addFile = key && isObject(json) ? json[key] : undefined;
  if (!isObject(addFile) || typeof addFile.raw !== 'string' || 'url' in addFile)
    return messageFromJson(schema, json);
  const { raw, ...rest } = addFile;
  const message = messageFromJson(schema, { ...(json as JsonObject), [key as string]: rest });
  if (message.body.case === 'addFile') {
    const value = Buffer.from(raw, 'base64');
    message.body.value.source = { case: 'raw', value: create(BytesValueSchema, { value }) };
  }
  return message;
}
