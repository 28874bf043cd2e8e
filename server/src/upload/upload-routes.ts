import { createHash } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors.ts';
import { sendJson } from '../http/errors.ts';
import { readObject, readString } from '../http/wire.ts';
import { defaultProject } from '../platform/pfs/pfs-requests.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { FaultInjector } from './fault-injection.ts';
import type { ReceivedChunk, UploadSessions } from './upload-sessions.ts';

/** The largest chunk slice accepted (the client sends 20 MiB slices), plus a little slack. */
export const maxChunkBytes = 20 * 1024 * 1024 + 64 * 1024;

interface MultipartFile {
  file: AsyncIterable<Buffer> & { truncated: boolean };
}

/** Streams one multipart file part to an fsynced temp file while hashing it. */
async function receiveChunk(
  part: MultipartFile,
  blobs: BlobStore,
  faults: FaultInjector,
  requestBytes: number,
): Promise<ReceivedChunk> {
  const tempPath = blobs.tempPath();
  const handle = await open(tempPath, 'wx');
  const hasher = createHash('sha256');
  let sizeBytes = 0;
  try {
    for await (const bytes of part.file) {
      await handle.write(bytes);
      hasher.update(bytes);
      sizeBytes += bytes.length;
      if (faults.armed('upload-chunk-mid') && sizeBytes >= requestBytes / 2) {
        await handle.sync();
        faults.crashAt('upload-chunk-mid');
      }
    }
    if (part.file.truncated) throw invalidArgument(`a chunk may be at most ${maxChunkBytes} bytes`);
    await handle.sync();
    await handle.close();
    return { tempPath, hash: hasher.digest('hex'), sizeBytes };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tempPath, { force: true });
    throw error;
  }
}

/** Reads the multipart fields and the one file part of a chunk request. */
async function readChunkRequest(request: FastifyRequest, blobs: BlobStore, faults: FaultInjector) {
  const fields: Record<string, string> = {};
  let chunk: ReceivedChunk | null = null;
  const requestBytes = Number(request.headers['content-length'] ?? 0);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (chunk) throw invalidArgument('send one file part per chunk request');
        chunk = await receiveChunk(part, blobs, faults, requestBytes);
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (chunk) await rm(chunk.tempPath, { force: true });
    throw error;
  }
  if (!chunk) throw invalidArgument('the chunk request has no file part');
  return { fields, chunk };
}

function fieldInt(fields: Record<string, string>, name: string): number {
  const value = fields[name];
  if (value === undefined || !/^\d+$/.test(value.trim())) {
    throw invalidArgument(`${name} must be a non-negative integer`);
  }
  return Number(value);
}

/** The chunked upload API (product spec section 7, "Upload calls"). */
export async function registerUploadRoutes(
  app: FastifyInstance,
  sessions: UploadSessions,
  blobs: BlobStore,
  faults: FaultInjector,
): Promise<void> {
  await app.register(multipart, { limits: { fileSize: maxChunkBytes, files: 1, fields: 16 } });

  app.post('/upload/start', async (request, reply) => {
    const body = readObject(request.body, 'request');
    const uploadId = sessions.start({
      path: readString(body.path, 'path') || '/',
      repo: readString(body.repo, 'repo'),
      branch: readString(body.branch, 'branch') || 'master',
      description: readString(body.description, 'description'),
      project: readString(body.projectId, 'projectId') || defaultProject,
    });
    return sendJson(reply, 200, { uploadId });
  });

  app.post('/upload', async (request, reply) => {
    if (!request.isMultipart())
      throw invalidArgument('the chunk request must be multipart/form-data');
    const { fields, chunk } = await readChunkRequest(request, blobs, faults);
    const uploadId = fields.uploadId ?? '';
    const fileName = fields.fileName ?? '';
    let chunkTotal: number;
    let currentChunk: number;
    try {
      chunkTotal = fieldInt(fields, 'chunkTotal');
      currentChunk = fieldInt(fields, 'currentChunk');
    } catch (error) {
      await rm(chunk.tempPath, { force: true });
      throw error;
    }
    try {
      faults.failChunkOnce(fileName, currentChunk);
    } catch (error) {
      await rm(chunk.tempPath, { force: true });
      throw error;
    }
    const received = await sessions.acceptChunk(
      uploadId,
      fileName,
      chunkTotal,
      currentChunk,
      chunk,
    );
    return sendJson(reply, 200, { uploadId, fileName, received });
  });

  app.get<{ Querystring: { uploadId?: string } }>('/upload/status', async (request, reply) =>
    sendJson(reply, 200, sessions.status(request.query.uploadId ?? '')),
  );

  app.post('/upload/finish', async (request, reply) => {
    const body = readObject(request.body, 'request');
    const commit = await sessions.finish(
      readString(body.uploadId, 'uploadId'),
      readString(body.description, 'description'),
    );
    return sendJson(reply, 200, {
      uploadId: readString(body.uploadId, 'uploadId'),
      commitId: commit.id,
    });
  });
}
