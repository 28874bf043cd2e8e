import type { Json } from './api-client.ts';

/** One chunk of the chunked upload (`POST /upload`), as the console's upload engine sends it. */
export function postChunk(
  url: string,
  uploadId: string,
  fileName: string,
  chunkTotal: number,
  currentChunk: number,
  bytes: Buffer,
): Promise<Response> {
  const form = new FormData();
  form.set('uploadId', uploadId);
  form.set('fileName', fileName);
  form.set('chunkTotal', String(chunkTotal));
  form.set('currentChunk', String(currentChunk));
  form.set('file', new Blob([bytes]), 'blob');
  return fetch(`${url}/upload`, { method: 'POST', body: form });
}

/** A JSON POST to a non-API route (`/upload/start`, `/upload/finish`), with its status. */
export async function postJson(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/**
 * postJson and chunk sending bound to one server, whose address is read at each call (so it
 * can be made before the server starts):
 *   const { postJson, sendChunk } = uploadClient(() => server.url);
 */
export function uploadClient(base: () => string) {
  return {
    postJson: (path: string, body: unknown) => postJson(base(), path, body),
    /** One chunk (postChunk), with the answer's status and JSON body. */
    async sendChunk(
      uploadId: string,
      fileName: string,
      chunkTotal: number,
      currentChunk: number,
      bytes: Buffer,
    ) {
      const response = await postChunk(base(), uploadId, fileName, chunkTotal, currentChunk, bytes);
      return { status: response.status, body: (await response.json()) as Json };
    },
  };
}
