import { Readable } from 'node:stream';
import { ApiError, Code } from '../errors.ts';
import { PACHD_TOKEN_HEADER, type Upstream } from './upstream.ts';
import type {
  LandedCommit,
  LandTarget,
  StagedFile,
  UploadLander,
} from '../upload/upload-lander.ts';

export type { UploadLander } from '../upload/upload-lander.ts';

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
