import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedPrecondition, invalidArgument } from '../../errors.ts';
import { int64, readObject, readOptionalObject, readString } from '../../http/wire.ts';
import { unary, type MethodRegistry } from '../platform.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { readCommitRef, resolveCommitRef } from './pfs-requests.ts';
import type { PfsStore } from './pfs-store.ts';

/**
 * Egress {commit, objectStorage: {url}} → {objectStorage: {bytesWritten}}: copies every file of
 * a commit out of the platform. The embedded platform supports `file://<absolute folder>` URLs
 * (a folder on the server's machine): each file is written at its repo path under that folder,
 * creating folders as needed and replacing files already there; a path that would resolve
 * outside the folder is refused (3). bytesWritten counts the file bytes written.
 * Other schemes (s3://, gs://, …) and sqlDatabase targets answer 3 (INVALID_ARGUMENT) with a
 * message saying only file:// is supported: the embedded platform has no object-storage or SQL
 * client. A commit that is not finished answers 9.
 */
export function registerEgressApi(
  methods: MethodRegistry,
  deps: { store: PfsStore; blobs: BlobStore },
): void {
  const { store, blobs } = deps;
  methods.set(
    'pfs_v2.API/Egress',
    unary(async (raw, signal) => {
      const req = readObject(raw, 'request');
      if (readOptionalObject(req.sqlDatabase, 'sqlDatabase'))
        throw invalidArgument(
          'Egress to a SQL database is not supported by the embedded platform (only objectStorage with a file:// URL)',
        );
      const target = readOptionalObject(req.objectStorage, 'objectStorage');
      const url = target ? readString(target.url, 'objectStorage.url') : '';
      if (!url) throw invalidArgument('objectStorage.url is required (a file:// URL)');
      const root = folderOf(url);
      const { commit } = resolveCommitRef(store, readCommitRef(req.commit, 'commit'));
      if (commit.finished_at === null)
        throw failedPrecondition(
          `commit ${commit.id} is not finished: egress needs a finished commit`,
        );
      await mkdir(root, { recursive: true });
      if (!(await stat(root)).isDirectory()) throw invalidArgument(`${root} is not a folder`);
      let bytesWritten = 0;
      for (const row of store.allFiles(commit)) {
        if (signal.aborted) throw invalidArgument('the request was cancelled');
        if (row.type !== 'FILE') continue;
        const destination = path.resolve(root, `.${row.path}`);
        const relative = path.relative(root, destination);
        if (!relative || relative.startsWith('..') || path.isAbsolute(relative))
          throw invalidArgument(`file ${row.path} would be written outside ${root}`);
        await mkdir(path.dirname(destination), { recursive: true });
        const handle = await open(destination, 'w');
        try {
          if (row.size_bytes > 0) {
            for await (const chunk of blobs.read(row.hash)) {
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
