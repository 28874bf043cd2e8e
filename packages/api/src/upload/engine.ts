import { GENERIC_FETCH_ERROR, fetchErrorMessage } from '../fetch.ts';
import { authorizationHeader, localStorageToken, type TokenProvider } from '../token.ts';
import {
  DEFAULT_UPLOAD_BRANCH,
  DEFAULT_UPLOAD_PATH,
  UPLOAD_FAILED_MESSAGE,
  UPLOAD_PROJECT_ID,
  chunkCount,
  chunkProgress,
  chunkRange,
  distinctUploadIds,
  groupByDirPath,
  joinUploadPath,
  missingChunks,
  type UploadItem,
} from './item.ts';
import { multipartBody } from './multipart.ts';

/** How the engine reaches the server; works with browsers' fetch and Node 20's. */
export interface UploadTransport {
  /** Origin in front of `/upload/...`; '' means same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The bearer id token (sent as well as the cookie); defaults to the stored one. */
  getToken?: TokenProvider;
}

export interface StartUploadsArgs extends UploadTransport {
  items: readonly UploadItem[];
  repo: string;
  path?: string;
  branch?: string;
  projectId?: string;
  description?: string;
  /**
   * Beyond the spec: sent with every `/upload/start` of this run, so the server lands the
   * sessions of one upload (one per folder) in one commit. Unknown to a server that ignores it.
   */
  group?: string;
  /** Called with a fresh snapshot of every item after each change. */
  onProgress?: (items: UploadItem[]) => void;
}

export interface UploadRun {
  items: UploadItem[];
  /** The message to show when the run stopped on a failure; null when every file was sent. */
  error: string | null;
}

class UploadFailure extends Error {}

/**
 * Sends files: one `/upload/start` per distinct dirPath, then each file's chunks in order as
 * multipart posts, two at a time (CHUNKS_IN_FLIGHT; the body built as one Blob around the file
 * slice: multipart.ts). A failed call stops the run; a failed chunk aborts its file's requests
 * and marks that file `error`, keeping the percent reached.
 */
export async function startUploads(args: StartUploadsArgs): Promise<UploadRun> {
  const items = args.items.map((item) => ({ ...item }));
  const report = () => args.onProgress?.(items.map((item) => ({ ...item })));
  try {
    for (const [dirPath, group] of groupByDirPath(items)) {
      // A directory whose session was started before (an earlier run that stopped on a failure,
      // or a session remembered across a closed tab) continues that session: only the chunks the
      // server lacks are sent, so files already sent are not lost to a second session.
      const known = group.find((item) => item.uploadId !== '')?.uploadId ?? '';
      const status = known ? await sessionStatus(args, known) : null;
      const uploadId =
        status?.uploadId ??
        (await startSession(args, joinUploadPath(args.path ?? DEFAULT_UPLOAD_PATH, dirPath)));
      for (const item of group) {
        if (item.uploadId !== uploadId && item.status !== 'success') {
          item.progress = 0;
          item.status = 'normal';
        }
        item.uploadId = uploadId;
      }
      report();
      for (const item of group) {
        if (item.status === 'success') continue;
        const chunks = status
          ? missingChunks(chunkCount(item.file.size), receivedOf(status, item))
          : allChunks(item);
        await sendChunks(item, chunks, args, report);
      }
    }
    return { items, error: null };
  } catch (err) {
    return { items, error: err instanceof UploadFailure ? err.message : UPLOAD_FAILED_MESSAGE };
  }
}

/** What `/upload/finish` answers (the spec's client only logs it). */
export interface UploadFinishAnswer {
  uploadId?: string;
  /** The commit the upload landed in. */
  commitId?: string;
  /** Beyond the spec: the trials the commit started (Ivory's embedded platform). */
  trials?: Array<{ id: string; flow: string; case: string; project?: { name: string } }>;
}

/** Finishes each distinct upload session once. Resolves with the failure message or null. */
export async function finishUploads(
  args: UploadTransport & {
    uploadIds: readonly string[] | readonly UploadItem[];
    description?: string;
    /** Called with each finish's answer, in order. */
    onFinished?: (answer: UploadFinishAnswer) => void;
  },
): Promise<string | null> {
  const ids =
    typeof args.uploadIds[0] === 'object'
      ? distinctUploadIds(args.uploadIds as readonly UploadItem[])
      : [...new Set(args.uploadIds as readonly string[])];
  try {
    for (const uploadId of ids) {
      const answer = await postJson(args, '/upload/finish', {
        uploadId,
        description: args.description ?? '',
      });
      args.onFinished?.((answer ?? {}) as UploadFinishAnswer);
    }
    return null;
  } catch {
    return UPLOAD_FAILED_MESSAGE;
  }
}

/** Asks the server which chunks of an item's session arrived and sends only the missing ones. */
export async function resumeFile(
  item: UploadItem,
  args: UploadTransport & { onProgress?: (item: UploadItem) => void },
): Promise<UploadRun> {
  const current = { ...item };
  const report = () => args.onProgress?.({ ...current });
  try {
    const status = await sessionStatus(args, item.uploadId);
    if (!status) throw new UploadFailure(UPLOAD_FAILED_MESSAGE);
    const total = chunkCount(item.file.size);
    await sendChunks(current, missingChunks(total, receivedOf(status, item)), args, report);
    return { items: [current], error: null };
  } catch (err) {
    return {
      items: [current],
      error: err instanceof UploadFailure ? err.message : UPLOAD_FAILED_MESSAGE,
    };
  }
}

/** `GET /upload/status?uploadId=` answer: per file, the chunk indexes the server holds. */
export interface UploadStatusResponse {
  uploadId: string;
  files: Array<{ fileName: string; chunkTotal: number; received: number[] }>;
}

/**
 * `GET /upload/status?uploadId=`: the chunks the server holds, or null when it no longer knows the
 * session (finished, or cleaned up after the idle timeout). Other failures throw.
 */
export async function sessionStatus(
  transport: UploadTransport,
  uploadId: string,
): Promise<UploadStatusResponse | null> {
  const response = await doFetch(transport)(
    `${transport.baseUrl ?? ''}/upload/status?uploadId=${encodeURIComponent(uploadId)}`,
    { credentials: 'include' },
  );
  if (response.status === 404) return null;
  if (!response.ok) throw new UploadFailure(uploadErrorMessage(await response.text()));
  return (await response.json()) as UploadStatusResponse;
}

function receivedOf(status: UploadStatusResponse, item: UploadItem): number[] {
  const total = chunkCount(item.file.size);
  const file = status.files.find((entry) => entry.fileName === item.file.name);
  // Chunks sent with another chunk count belong to a different version of the file.
  return file && file.chunkTotal === total ? file.received : [];
}

function allChunks(item: UploadItem): number[] {
  return Array.from({ length: chunkCount(item.file.size) }, (_, index) => index);
}

async function startSession(args: StartUploadsArgs, path: string): Promise<string> {
  const body = (await postJson(args, '/upload/start', {
    path,
    repo: args.repo,
    branch: args.branch ?? DEFAULT_UPLOAD_BRANCH,
    description: args.description ?? '',
    projectId: args.projectId ?? UPLOAD_PROJECT_ID,
    ...(args.group ? { group: args.group } : {}),
  })) as { uploadId?: unknown };
  if (typeof body.uploadId !== 'string' || body.uploadId === '')
    throw new UploadFailure(UPLOAD_FAILED_MESSAGE);
  return body.uploadId;
}

/**
 * Chunks a file keeps in flight: the next chunk's request starts while the one before it is
 * still being received, so the server's per-chunk work (closing, recording, answering) and the
 * round trip overlap with bytes flowing instead of leaving the connection idle. The server holds
 * the next chunk back until the one before it is kept and appends it in place.
 */
export const CHUNKS_IN_FLIGHT = 2;

async function sendChunks(
  item: UploadItem,
  chunks: number[],
  transport: UploadTransport,
  report: () => void,
) {
  const total = chunkCount(item.file.size);
  let sent = total - chunks.length;
  const controller = new AbortController();
  item.controller = controller;
  item.status = 'loading';
  report();
  const post = async (index: number): Promise<void> => {
    const { start, end } = chunkRange(index, item.file.size);
    const { body, contentType } = multipartBody(
      [
        ['uploadId', item.uploadId],
        ['fileName', item.file.name],
        ['chunkTotal', String(total)],
        ['currentChunk', String(index)],
      ],
      'file',
      item.file.name,
      item.file.slice(start, end),
    );
    const response = await doFetch(transport)(`${transport.baseUrl ?? ''}/upload`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': contentType },
      credentials: 'include',
      signal: controller.signal,
    });
    // Read to the end, so the connection is free for the next chunk.
    const text = await response.text();
    if (!response.ok) throw new UploadFailure(uploadErrorMessage(text));
  };
  const pending: Array<Promise<void>> = [];
  try {
    for (let next = 0; next < chunks.length || pending.length > 0;) {
      while (next < chunks.length && pending.length < CHUNKS_IN_FLIGHT) {
        const request = post(chunks[next++]!);
        // Awaited in order below; a failure meanwhile must not count as unhandled.
        request.catch(() => undefined);
        pending.push(request);
      }
      await pending.shift();
      sent += 1;
      item.progress = chunkProgress(sent, total);
      if (item.progress === 100) item.status = 'success';
      report();
    }
  } catch (err) {
    controller.abort();
    await Promise.allSettled(pending);
    item.status = 'error';
    report();
    throw err instanceof UploadFailure ? err : new UploadFailure(UPLOAD_FAILED_MESSAGE);
  }
  item.controller = null;
  item.status = 'success';
  item.progress = 100;
  report();
}

async function postJson(transport: UploadTransport, path: string, body: unknown): Promise<unknown> {
  const response = await doFetch(transport)(`${transport.baseUrl ?? ''}${path}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new UploadFailure(uploadErrorMessage(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/** The server's error text, or 'upload file failed.' when it gave none. */
function uploadErrorMessage(text: string): string {
  const message = fetchErrorMessage(text);
  return message === GENERIC_FETCH_ERROR ? UPLOAD_FAILED_MESSAGE : message;
}

/** The transport's fetch, every request carrying the id token as a bearer credential. */
function doFetch(transport: UploadTransport): typeof fetch {
  const send = transport.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const auth = authorizationHeader(transport.getToken ?? localStorageToken);
  return (input, init = {}) =>
    send(input, {
      ...init,
      headers: { ...auth, ...((init.headers as Record<string, string> | undefined) ?? {}) },
    });
}
