import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalidArgument } from '../errors.ts';
import { sendJson } from '../http/errors.ts';
import { readObject, readString } from '../http/body-fields.ts';
import { defaultProject } from '../platform/pfs/pfs-requests.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { FaultInjector } from './fault-injection.ts';
import type { ChunkId, ChunkSource } from './chunk-receiver.ts';
import type { UploadSessions } from './upload-sessions.ts';

/** Where an upload landed. */
export interface LandedUpload {
  project: string;
  repo: string;
  branch: string;
  commitId: string;
}

/** The largest chunk slice accepted (the client sends 20 MiB slices), plus a little slack. */
export const maxChunkBytes = 20 * 1024 * 1024 + 64 * 1024;

const chunkFields = ['uploadId', 'fileName', 'chunkTotal', 'currentChunk'] as const;

function fieldInt(fields: Record<string, string>, name: string): number {
  const value = fields[name];
  if (value === undefined || !/^\d+$/.test(value.trim())) {
    throw invalidArgument(`${name} must be a non-negative integer`);
  }
  return Number(value);
}

function chunkIdOf(fields: Record<string, string>): ChunkId {
  return {
    uploadId: fields.uploadId ?? '',
    fileName: fields.fileName ?? '',
    chunkTotal: fieldInt(fields, 'chunkTotal'),
    currentChunk: fieldInt(fields, 'currentChunk'),
  };
}

/** Reads and discards the rest of a part, so the request body is consumed before answering. */
async function drain(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of source) {
    // discarded
  }
}

/** Saves a file part that came before its fields to a temp file (an unusual field order). */
async function saveToTemp(source: ChunkSource, blobs: BlobStore): Promise<string> {
  const tempPath = blobs.tempPath();
  const handle = await open(tempPath, 'wx');
  try {
    for await (const bytes of source) await handle.write(bytes);
    if (source.truncated) throw invalidArgument(`a chunk may be at most ${maxChunkBytes} bytes`);
    return tempPath;
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Reads a chunk request: the fields, then the one file part, whose bytes stream straight into
 * the upload's staging (UploadSessions.receiveChunk). Returns the file's received chunks.
 */
async function receiveChunkRequest(
  request: FastifyRequest,
  sessions: UploadSessions,
  blobs: BlobStore,
  faults: FaultInjector,
  mayWrite: (request: FastifyRequest, uploadId: string) => void,
): Promise<{ chunk: ChunkId; received: number[] }> {
  const fields: Record<string, string> = {};
  const requestBytes = Number(request.headers['content-length'] ?? 0);
  let result: { chunk: ChunkId; received: number[] } | null = null;
  let early: string | null = null;
  const receive = (chunk: ChunkId, source: ChunkSource) =>
    sessions.receiveChunk(chunk, source, {
      requestBytes,
      maxBytes: maxChunkBytes,
      beforeRecord: () => faults.failChunkOnce(chunk.fileName, chunk.currentChunk),
    });
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (result || early) {
        await drain(part.file);
        throw invalidArgument('send one file part per chunk request');
      }
      if (!chunkFields.every((name) => name in fields)) {
        early = await saveToTemp(part.file, blobs);
        continue;
      }
      let chunk: ChunkId;
      try {
        chunk = chunkIdOf(fields);
        mayWrite(request, chunk.uploadId);
        sessions.checkChunk(chunk.uploadId, chunk.fileName, chunk.chunkTotal, chunk.currentChunk);
      } catch (error) {
        await drain(part.file);
        throw error;
      }
      result = { chunk, received: await receive(chunk, part.file) };
    }
    if (early) {
      const chunk = chunkIdOf(fields);
      mayWrite(request, chunk.uploadId);
      result = { chunk, received: await receive(chunk, createReadStream(early)) };
    }
  } finally {
    if (early) await rm(early, { force: true });
  }
  if (!result) throw invalidArgument('the chunk request has no file part');
  return result;
}

/** The multipart parser's complaints (truncated body, wrong or missing boundary) are code 3. */
function asMultipartError(error: unknown): unknown {
  if (error instanceof ApiError || !(error instanceof Error)) return error;
  if (/multipart|boundary|part header|end of form/i.test(error.message))
    return invalidArgument(`malformed multipart body: ${error.message}`);
  return error;
}

/** The chunked upload API (product spec section 7, "Upload calls"). */
export async function registerUploadRoutes(
  app: FastifyInstance,
  sessions: UploadSessions,
  blobs: BlobStore,
  faults: FaultInjector,
  /** The caller's cluster token for landing an upload in cluster mode ('' otherwise). */
  pachToken: (request: FastifyRequest) => Promise<string> = () => Promise.resolve(''),
  /** Throws (7) when the caller may not write where the upload lands (roles on). */
  mayWrite: (request: FastifyRequest, uploadId: string) => void = () => {},
  /**
   * Beyond the spec: what else `/upload/finish` answers about the landed commit (the trials it
   * started). Not called for a finish that answers a commit landed before.
   */
  afterFinish: (landed: LandedUpload) => Promise<Record<string, unknown>> = () =>
    Promise.resolve({}),
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
      // Beyond the spec: the sessions of one modal upload share a group and land in one commit.
      group: readString(body.group, 'group'),
    });
    return sendJson(reply, 200, { uploadId });
  });

  app.post('/upload', async (request, reply) => {
    if (!request.isMultipart())
      throw invalidArgument('the chunk request must be multipart/form-data');
    const { chunk, received } = await receiveChunkRequest(
      request,
      sessions,
      blobs,
      faults,
      mayWrite,
    ).catch((error: unknown) => {
      throw asMultipartError(error);
    });
    return sendJson(reply, 200, {
      uploadId: chunk.uploadId,
      fileName: chunk.fileName,
      received,
    });
  });

  app.get<{ Querystring: { uploadId?: string } }>('/upload/status', async (request, reply) =>
    sendJson(reply, 200, sessions.status(request.query.uploadId ?? '')),
  );

  app.post('/upload/finish', async (request, reply) => {
    const body = readObject(request.body, 'request');
    const uploadId = readString(body.uploadId, 'uploadId');
    const description = readString(body.description, 'description');
    const target = sessions.target(uploadId);
    const commit = await sessions.finish(uploadId, description, await pachToken(request));
    const extra = target
      ? await afterFinish({ ...target, commitId: commit.id }).catch((error: unknown) => {
          request.log.error({ err: error }, 'after an upload landed');
          return {};
        })
      : {};
    return sendJson(reply, 200, { ...extra, uploadId, commitId: commit.id });
  });
}
