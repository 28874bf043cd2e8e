import { create } from '@bufbuild/protobuf';
import { BytesValueSchema } from '@bufbuild/protobuf/wkt';
import { pfs_v2 } from '@ivory/api/proto';
import { ApiError, Code, invalidArgument, unimplemented } from '../../errors.ts';
import { messageFromJson } from '../typed-method.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { asDirPath, normalisePath, validatePfsPath } from './file-paths.ts';
import { applyStaged, type StagedTarget } from './modify-file-apply.ts';
import { commitIdPattern, validateBranchName } from './names.ts';
import { PendingFiles } from './pending-files.ts';
import type { PfsHashes } from './pfs-hashes.ts';
import { commitRefOf, fileRefOf } from './pfs-refs.ts';
import { resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';
import { isOpen, type CommitRow } from './rows.ts';

type ModifyFileRequest = pfs_v2.ModifyFileRequest;

/**
 * ModifyFile: a stream of setCommit / addFile / deleteFile / copyFile messages, with Pachyderm's
 * semantics (modify-file-apply.ts): addFile appends to the file at its path (Pachyderm's client
 * sends deleteFile first to overwrite), copyFile replaces (or appends, with `append`), deleteFile
 * removes a file or a folder's files (of a datum, when it names one). Paths are checked as pachd
 * checks them (file-paths.ts validatePfsPath). A file where a folder is (or a path written from
 * two datums) does not fail the request: the commit finishes with pachd's validation error.
 *
 * The request is atomic: bytes go to the blob store while the stream is read (content-addressed,
 * invisible until a file row names them), the operations are staged in memory, and only after
 * the last message are they applied, all in one SQLite transaction. An error, a disconnect or a
 * crash before that leaves no trace (unreferenced blobs are reclaimed by the blob sweeper).
 *
 * A setCommit naming only a branch writes into that branch's open commit if it has one
 * (StartCommit'ed by the caller), or else into a new commit that the same transaction
 * finishes — so concurrent writers to one branch each get their own commit, in the order their
 * requests end, and none fails because another finished first. Naming a finished commit is 9
 * ("commit … has already finished").
 */
export async function modifyFile(
  store: PfsStore,
  blobs: BlobStore,
  hashes: PfsHashes,
  requests: AsyncIterable<ModifyFileRequest>,
  signal: AbortSignal,
): Promise<object> {
  const targets: StagedTarget[] = [];
  let target: StagedTarget | null = null;
  await hashes.ready();
  const pending = new PendingFiles<StagedTarget>(blobs, (hash, bytes) =>
    hashes.remember(hash, bytes),
  );

  const requireTarget = (): StagedTarget => {
    if (!target) throw invalidArgument('ModifyFile needs a setCommit message first');
    return target;
  };

  /** Makes the pending files durable blobs and stages them with the target each belongs to. */
  async function flush(): Promise<void> {
    for (const { owner, file } of await pending.land({ keepSmall: true }))
      owner.ops.push({ kind: 'add', file });
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
          const path = validatePfsPath(body.value.path);
          if (path === '/') throw invalidArgument('addFile.path must name a file');
          const owner = requireTarget();
          const raw = source.value?.value ?? new Uint8Array(0);
          await pending.append(
            owner,
            path,
            Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
            body.value.datum,
          );
          break;
        }
        case 'deleteFile': {
          await flush();
          // Lenient with names: a file the console uploaded with characters a ModifyFile may
          // not write can still be deleted. A folder is named with a trailing slash (as pachd):
          // a PutFile's deleteFile at a folder's path leaves the folder alone.
          const raw = body.value.path;
          const normalised = normalisePath(raw);
          const path = raw.endsWith('/') || normalised === '/' ? asDirPath(normalised) : normalised;
          const datum = body.value.datum || null;
          requireTarget().ops.push({ kind: 'delete', path, datum });
          break;
        }
        case 'copyFile': {
          await flush();
          const dst = normalisePath(body.value.dst);
          const src = fileRefOf(body.value.src);
          const source = resolveCommitRef(store, src.commit).commit;
          const found = store.getFile(source, src.path);
          if (found.type === 'FILE' && dst === '/')
            throw invalidArgument('copyFile.dst must name a file when copyFile.src is a file');
          requireTarget().ops.push({
            kind: 'copy',
            dst,
            source,
            sourcePath: src.path,
            append: body.value.append,
            datum: body.value.datum,
          });
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
    await applyStaged(store, blobs, targets);
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

/**
 * Reads a setCommit as pachd does: an id that is not a commit id's shape names a branch; a
 * branch alone (or a commit id not found, with a branch) writes into the branch's open head or
 * a new commit on it; a commit must exist and be open (now, and again when applied).
 */
function stageTarget(store: PfsStore, value: pfs_v2.Commit): StagedTarget {
  const ref = commitRefOf(value);
  const repo = store.getRepo(ref.repo);
  let { id, branch } = ref;
  if (!branch && id && !commitIdPattern.test(id)) {
    branch = id;
    id = '';
  }
  if (branch && (id === '' || id === branch)) {
    validateBranchName(branch);
    return { repo, branch, commit: null, ops: [] };
  }
  let commit: CommitRow;
  try {
    commit = store.resolveCommit(repo, id, branch);
  } catch (error) {
    if (branch && error instanceof ApiError && error.code === Code.NOT_FOUND)
      return { repo, branch, commit: null, ops: [] };
    throw error;
  }
  if (!isOpen(commit)) throw store.finishedError(commit);
  return { repo, branch: null, commit, ops: [] };
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
