import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { invalidArgument } from '../errors.ts';
import { normalisePath } from '../platform/pfs/file-paths.ts';
import { packTar } from '../platform/pfs/file-tar.ts';
import type { PfsStore } from '../platform/pfs/pfs-store.ts';
import type { CommitRow, FileRow } from '../platform/pfs/rows.ts';
import type { BlobStore, ByteRange } from '../platform/storage/blob-store.ts';

const contentTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.yml': 'text/yaml; charset=utf-8',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

export function contentTypeFor(filePath: string): string {
  return contentTypes[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/** Parses a single "bytes=" range; null = serve everything, 'unsatisfiable' = answer 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return 'unsatisfiable';
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const attachment = (name: string) =>
  `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * GET (and HEAD) /files/:project/:repo/:commit/* — file bytes with ranges, folders as tar.
 * GET /files/:project/:repo/:commit?archive=tar&path=a&path=b — a selection as one tar stream.
 * Security headers for these answers: http/security-headers.ts (by route, after routing).
 */
export function registerFilesRoute(app: FastifyInstance, pfs: PfsStore, blobs: BlobStore): void {
  app.get<{
    Params: { project: string; repo: string; commit: string };
    Querystring: { archive?: string; path?: string | string[] };
  }>('/files/:project/:repo/:commit', async (request, reply) => {
    const { project, repo: repoName, commit: commitRef } = request.params;
    if (request.query.archive !== 'tar') throw invalidArgument('archive must be tar');
    const requested = request.query.path;
    const paths = (Array.isArray(requested) ? requested : requested ? [requested] : ['/']).map(
      (item) => normalisePath(item),
    );
    const repo = pfs.getRepo({ project, name: repoName, type: 'user' });
    const commit = pfs.resolveCommit(repo, commitRef, '');
    // Resolve every path first so a missing one answers 404 before any byte is sent.
    const rows = paths.map((item) => pfs.getFile(commit, item));
    return sendTar(reply, pfs, blobs, commit, rows, `${repoName}.tar`);
  });

  app.get<{
    Params: { project: string; repo: string; commit: string; '*': string };
    Querystring: { download?: string };
  }>('/files/:project/:repo/:commit/*', async (request, reply) => {
    const { project, repo: repoName, commit: commitRef } = request.params;
    const repo = pfs.getRepo({ project, name: repoName, type: 'user' });
    const commit = pfs.resolveCommit(repo, commitRef, '');
    const row = pfs.getFile(commit, normalisePath(request.params['*']));
    if (row.type === 'DIR') {
      const name = row.path === '/' ? 'root' : path.basename(row.path);
      return sendTar(reply, pfs, blobs, commit, [row], `${name}.tar`, row.path);
    }

    const name = path.basename(row.path);
    reply
      .header('accept-ranges', 'bytes')
      .header('etag', `"${row.hash}"`)
      .type(contentTypeFor(row.path));
    if (request.query.download === '1') reply.header('content-disposition', attachment(name));
    const range = parseRange(request.headers.range, row.size_bytes);
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${row.size_bytes}`).send();
    }
    if (row.size_bytes === 0) return reply.header('content-length', 0).send(Buffer.alloc(0));
    if (range) {
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${row.size_bytes}`)
        .header('content-length', range.end - range.start + 1);
      return reply.send(blobs.read(row.hash, range, undefined, row.size_bytes));
    }
    reply.header('content-length', row.size_bytes);
    // Verified as it is read: a damaged blob ends the answer with an error, never cleanly.
    return reply.send(blobs.read(row.hash, undefined, undefined, row.size_bytes));
  });
}

/** Streams files and folders as one tar archive (see packTar). */
function sendTar(
  reply: FastifyReply,
  pfs: PfsStore,
  blobs: BlobStore,
  commit: CommitRow,
  selection: FileRow[],
  archiveName: string,
  base = '/',
) {
  const body = packTar(pfs, blobs, commit, selection, base);
  return reply
    .type('application/x-tar')
    .header('content-disposition', attachment(archiveName))
    .send(body);
}
