// What an upload lands and through what: the staged files of a finished chunked upload and the
// lander that writes them as one commit (the embedded platform's store, or a cluster in cluster
// mode: proxy/cluster-upload.ts). The upload layer owns these; the cluster proxy implements them.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { failedPrecondition } from '../errors.ts';
import { normalisePath, normaliseRelativeName } from '../platform/pfs/file-paths.ts';

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
