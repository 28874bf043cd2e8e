import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { NO_BODY_MESSAGE, readNdjson } from './stream.ts';

function chunkedResponse(chunks: string[], status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status });
}

async function all<T>(generator: AsyncGenerator<T>): Promise<T[]> {
  const results: T[] = [];
  for await (const value of generator) results.push(value);
  return results;
}

describe('readNdjson', () => {
  it('yields results with lines split across chunk boundaries', async () => {
    const response = chunkedResponse([
      '{"result":{"n":1}}\n{"res',
      'ult":{"n":2}}\n',
      '{"result":{"n":3}}\n',
    ]);
    await expect(all(readNdjson(response))).resolves.toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('accepts a last line without newline and multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('{"result":"é"}');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 12));
        controller.enqueue(bytes.slice(12));
        controller.close();
      },
    });
    await expect(all(readNdjson(new Response(body)))).resolves.toEqual(['é']);
  });

  it('throws an ApiError on an error line after earlier results', async () => {
    const response = chunkedResponse([
      '{"result":1}\n{"error":{"code":5,"message":"commit not found","details":["x"]}}\n',
    ]);
    const seen: unknown[] = [];
    const run = async () => {
      for await (const value of readNdjson(response)) seen.push(value);
    };
    await expect(run()).rejects.toMatchObject({
      code: 5,
      message: 'commit not found',
      details: ['x'],
    });
    expect(seen).toEqual([1]);
  });

  it('throws the JSON error body of a non-OK status', async () => {
    const response = new Response('{"code":7,"message":"denied","details":[]}', { status: 403 });
    const err = await all(readNdjson(response)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 7, message: 'denied', status: 403 });
  });

  it("throws 'response doesnt have a body' without a body", async () => {
    await expect(all(readNdjson(new Response(null)))).rejects.toThrow(NO_BODY_MESSAGE);
  });
});
