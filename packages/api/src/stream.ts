import { ApiError } from './errors.ts';

export const NO_BODY_MESSAGE = 'response doesnt have a body';

type StreamLine<T> = { result: T } | { error: unknown };

/**
 * Reads a newline-delimited JSON response (`{"result":…}` / `{"error":{code,message,details}}`
 * per line) and yields each result. Lines may be split across chunks. A non-OK status before
 * streaming throws the ApiError of the JSON body; an error line throws its ApiError.
 */
export async function* readNdjson<T>(response: Response): AsyncGenerator<T, void, undefined> {
  if (!response.ok) throw await errorFromResponse(response);
  if (!response.body) throw new ApiError(2, NO_BODY_MESSAGE);

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  // Text of the line being received, in pieces: a long line (a GetFile chunk is about 1.4 MB of
  // base64) arrives in many reads, and only each new piece is searched for the newline.
  let pending: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n')) {
        pending.push(text.slice(0, newline));
        text = text.slice(newline + 1);
        const line = pending.join('');
        pending = [];
        if (line.trim() !== '') yield resultOf<T>(line, response.status);
      }
      if (text !== '') pending.push(text);
      if (done) {
        const last = pending.join('');
        if (last.trim() !== '') yield resultOf<T>(last, response.status);
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function resultOf<T>(line: string, status: number): T {
  let parsed: StreamLine<T>;
  try {
    parsed = JSON.parse(line) as StreamLine<T>;
  } catch {
    throw new ApiError(2, line, [], status);
  }
  if ('error' in parsed && parsed.error) throw ApiError.fromBody(parsed.error, status);
  return (parsed as { result: T }).result;
}

/** The ApiError for a failed response: its JSON `{code,message,details}` or its text. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    return ApiError.fromBody(JSON.parse(text), response.status);
  } catch {
    return ApiError.fromBody({ message: text }, response.status);
  }
}
