import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { ApiError, Code, failedPrecondition } from '../errors.ts';
import { normalisePath, normaliseRelativeName } from '../platform/pfs/file-paths.ts';
import { PACHD_TOKEN_HEADER, type Upstream } from './upstream.ts';

/** A file staged by the upload flow, to be written at `path` (absolute in the repo). */
export interface StagedFile {
  path: string;
  /** Opens the file's bytes (called once, when the file's turn comes). */
  open(): Readable | AsyncIterable<Uint8Array>;
}

export interface LandTarget {
  project: string;
  repo: string;
  branch: string;
  description: string;
}

/** The commit an upload landed in. */
export interface LandedCommit {
  id: string;
}

/**
 * Lands staged upload files in one new finished commit. In cluster mode: StartCommit, one
 * streamed ModifyFile, FinishCommit on the cluster. `pachToken` is the caller's cluster token
 * ('' with auth off).
 */
export interface UploadLander {
  land(target: LandTarget, files: StagedFile[], pachToken?: string): Promise<LandedCommit>;
}

/** The largest raw payload of one addFile message (Pachyderm's per-message limit). */
export const MAX_ADD_FILE_BYTES = 20 * 1024 * 1024;

/**
 * ModifyFile's request body: `setCommit`, then per file a `deleteFile` (an upload replaces, it
 * never appends to an existing file) and `addFile {path, raw}` messages of at most
 * `maxBytes` raw bytes each, in order (consecutive addFiles of one path append). Produced
 * lazily: one file is read at a time and at most one message is held in memory.
 */
export function modifyFileBody(
  commit: unknown,
  files: StagedFile[],
  maxBytes = MAX_ADD_FILE_BYTES,
): Readable {
  const line = (message: unknown) => Buffer.from(JSON.stringify(message) + '\n');
  async function* messages(): AsyncGenerator<Buffer> {
    yield line({ setCommit: commit });
    for (const file of files) {
      yield line({ deleteFile: { path: file.path } });
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let sent = false;
      for await (const chunk of file.open()) {
        let bytes = Buffer.from(chunk);
        while (pendingBytes + bytes.length >= maxBytes) {
          const take = maxBytes - pendingBytes;
          pending.push(bytes.subarray(0, take));
          bytes = bytes.subarray(take);
          const raw = Buffer.concat(pending).toString('base64');
          pending = [];
          pendingBytes = 0;
          sent = true;
          yield line({ addFile: { path: file.path, raw } });
        }
        if (bytes.length > 0) {
          pending.push(bytes);
          pendingBytes += bytes.length;
        }
      }
      if (pendingBytes > 0 || !sent) {
        yield line({
          addFile: { path: file.path, raw: Buffer.concat(pending).toString('base64') },
        });
      }
    }
  }
  return Readable.from(messages(), { objectMode: false });
}

/** Lands uploads through the cluster's own API. */
export class ClusterUploadLander implements UploadLander {
  constructor(private readonly upstream: Upstream) {}

  async land(target: LandTarget, files: StagedFile[], pachToken = ''): Promise<LandedCommit> {
    if (files.length === 0) throw new ApiError(Code.FAILED_PRECONDITION, 'the upload has no files');
    const headers = pachToken ? { [PACHD_TOKEN_HEADER]: pachToken } : {};
    const repo = { name: target.repo, type: 'user', project: { name: target.project } };
    const commit = (await this.upstream.call(
      'pfs_v2.API/StartCommit',
      { branch: { repo, name: target.branch }, description: target.description },
      headers,
    )) as { id?: unknown };
    if (typeof commit?.id !== 'string') {
      throw new ApiError(Code.UNAVAILABLE, 'the cluster answered StartCommit without a commit id');
    }
    try {
      await this.upstream.callWithStream(
        'pfs_v2.API/ModifyFile',
        modifyFileBody(commit, files),
        headers,
      );
      await this.upstream.call('pfs_v2.API/FinishCommit', { commit }, headers);
    } catch (error) {
      // Nothing of a failed upload may land: drop the open commit (best effort).
      await this.upstream
        .call('pfs_v2.API/DropCommitSet', { commitSet: { id: commit.id } }, headers)
        .catch(() => undefined);
      throw error;
    }
    return { id: commit.id };
  }
}

/** A staged file whose bytes are chunk files on disk, read one after another. */
export function chunkedStagedFile(targetPath: string, chunkPaths: string[]): StagedFile {
  return {
    path: targetPath,
    open: () =>
      Readable.from(
        (async function* () {
          for (const chunkPath of chunkPaths) yield* createReadStream(chunkPath);
        })(),
      ),
  };
}

/** A run of staged bytes: the first `bytes` bytes of the file at `path`. */
export interface StagedPart {
  path: string;
  bytes: number;
}

/** A staged file whose bytes are runs of files on disk, read one after another. */
export function partsStagedFile(targetPath: string, parts: StagedPart[]): StagedFile {
  return {
    path: targetPath,
    open: () =>
      Readable.from(
        (async function* () {
          for (const part of parts) {
            if (part.bytes > 0) yield* createReadStream(part.path, { end: part.bytes - 1 });
          }
        })(),
      ),
  };
}

/** What landStagedUpload needs of an upload session (upload/upload-sessions.ts). */
export interface StagedUpload {
  upload: { id: string; project: string; repo: string; branch: string; path: string };
  files: { file_name: string; chunk_total: number }[];
  /** How many chunks of a file were received. */
  receivedChunks(fileName: string): number;
  /**
   * Where a complete file's bytes are staged, in order (upload-sessions.ts: the leading chunks
   * in one `data` file, chunks that arrived out of order in files of their own).
   */
  partsOf(fileName: string): StagedPart[] | Promise<StagedPart[]>;
}

/**
 * Lands a chunked upload through a lander, after checking every file is complete. Each file's
 * staged parts are streamed as they are (nothing is assembled or copied locally).
 */
export async function landStagedUpload(
  lander: UploadLander,
  staged: StagedUpload,
  description: string,
  pachToken = '',
): Promise<LandedCommit> {
  const { upload, files } = staged;
  if (files.length === 0) throw failedPrecondition(`upload ${upload.id} has no files`);
  for (const file of files) {
    const received = staged.receivedChunks(file.file_name);
    if (received !== file.chunk_total) {
      throw failedPrecondition(
        `file ${file.file_name} is incomplete: received ${received} of ${file.chunk_total} chunks`,
      );
    }
  }
  const stagedFiles: StagedFile[] = [];
  for (const file of files) {
    const target = normalisePath(`${upload.path}/${normaliseRelativeName(file.file_name)}`);
    stagedFiles.push(partsStagedFile(target, await staged.partsOf(file.file_name)));
  }
  return lander.land(
    { project: upload.project, repo: upload.repo, branch: upload.branch, description },
    stagedFiles,
    pachToken,
  );
}
