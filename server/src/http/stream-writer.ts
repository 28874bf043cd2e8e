import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough, type Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { slicer } from '../platform/event-loop.ts';
import { readRuns, type MessageRun } from '../platform/message-runs.ts';
import { messageJson } from '../platform/wire.ts';
import { flushStream, negotiateEncoding, streamEncoder } from './compression.ts';
import { toApiError } from './errors.ts';

/**
 * Lines a stream has ready at once go out in writes of about this many bytes: each write to a
 * compressor is a turn of libuv's thread pool and back, and each flush a write to the socket.
 */
export const STREAM_BATCH_BYTES = 256 * 1024;

/** How much may queue in the body (or its compressor's input) before the writer waits. */
const BODY_HIGH_WATER_MARK = 4 * STREAM_BATCH_BYTES;

/** A batch's buffer: room for a whole batch and then one more piece of lines (linePieceChars). */
const BATCH_BUFFER_BYTES = 2 * STREAM_BATCH_BYTES;

/**
 * Whether a promise settles before the event loop's next turn (a message that is ready now).
 * One setImmediate marks the turn for every message asked meanwhile (one per message cost a
 * second per 50,000 lines); a new one is set once it has fired.
 */
function readiness(): (promise: Promise<unknown>) => Promise<boolean> {
  let nextTurn: Promise<boolean> | null = null;
  return (promise) => {
    nextTurn ??= new Promise<boolean>((resolve) =>
      setImmediate(() => {
        nextTurn = null;
        resolve(false);
      }),
    );
    return Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      nextTurn,
    ]);
  };
}

/**
 * Resolves when `stream` can take more writes, or is gone, or the request is — at once when it
 * is already gone (its 'close' and the signal's 'abort' came before: waiting for them would
 * wait for ever, and the stream would hold its handler's scan open).
 */
export function drained(stream: Writable, signal: AbortSignal): Promise<void> {
  if (signal.aborted || stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    signal.addEventListener('abort', done);
  });
}

/**
 * Writes a server stream as NDJSON, one `{"result": …}` line per message, compressed (gzip or
 * brotli) when the client accepts it. Messages that are ready together are written together, in
 * writes of about STREAM_BATCH_BYTES, and the compressor is flushed only when the stream is
 * about to wait for its next message, or has been writing for a slice of the event loop: a
 * client still sees each line as soon as it is produced, but a long listing is not cut into a
 * flushed block per write. A failure before the first message is an ordinary error response
 * (thrown); after it, a final `{"error": …}` line. A client that goes away ends the stream, and
 * with it the handler's iterator. `compress`: false for streams of file bytes (never
 * compressed: see api-routes.ts).
 */
export async function sendStream(
  request: FastifyRequest,
  reply: FastifyReply,
  messages: AsyncIterable<unknown>,
  signal: AbortSignal,
  compress = true,
): Promise<FastifyReply> {
  // A stream of message runs (message-runs.ts) is read a run at a time, each run's lines made
  // by the run itself; any other stream a message at a time.
  const runs = readRuns(messages);
  const encode = runs ? encodeRun : encodeMessage;
  const iterator = (runs ?? messages)[Symbol.asyncIterator]();
  // The stream pulls later messages from outside this request's async context: each pull runs
  // in the context the handler started in (the caller's identity, for role checks).
  const inRequestContext = AsyncLocalStorage.snapshot();
  const next = () => inRequestContext(() => iterator.next());
  const first = await next();

  // A first message that is a whole batch of lines by itself (a run of a long listing) makes a
  // bulk stream, compressed at a cheaper quality.
  const firstPieces = first.done ? [] : encode(first.value);
  const bulk = firstPieces.reduce((sum, piece) => sum + piece.length, 0) >= STREAM_BATCH_BYTES;
  const encoding = compress ? negotiateEncoding(request.headers['accept-encoding']) : null;
  const encoder = encoding ? streamEncoder(encoding, BODY_HIGH_WATER_MARK, bulk) : null;
  const body: Writable & NodeJS.ReadableStream =
    encoder ?? new PassThrough({ writableHighWaterMark: BODY_HIGH_WATER_MARK });
  let unflushed = false;
  const flush = () => {
    if (encoder && encoding && unflushed) flushStream(encoder, encoding);
    unflushed = false;
  };
  const put = async (chunk: Buffer | string) => {
    // The client is gone: the rest of a run's lines go nowhere.
    if (signal.aborted || body.destroyed) return;
    unflushed = true;
    if (!body.write(chunk)) await drained(body, signal);
  };

  async function write(): Promise<void> {
    let step = first;
    let pieces = firstPieces;
    let buffer = Buffer.allocUnsafe(BATCH_BUFFER_BYTES);
    let used = 0;
    const putBuffer = async () => {
      if (used === 0) return;
      const chunk = buffer.subarray(0, used);
      buffer = Buffer.allocUnsafe(BATCH_BUFFER_BYTES);
      used = 0;
      await put(chunk);
    };
    const add = async (piece: string) => {
      // A UTF-16 unit is at most 3 bytes of UTF-8: a piece that may not fit goes after the rest.
      if (piece.length * 3 > BATCH_BUFFER_BYTES - used) {
        await putBuffer();
        if (piece.length * 3 > BATCH_BUFFER_BYTES) return put(piece);
      }
      used += buffer.write(piece, used);
      if (used >= STREAM_BATCH_BYTES) await putBuffer();
    };
    const pause = slicer();
    const settlesNow = readiness();
    try {
      while (!step.done && !signal.aborted) {
        for (const piece of pieces) await add(piece);
        const pending = next();
        // What is written goes out when the stream is about to wait for its next message, and
        // at least once per slice of the event loop (a stream that never waits still trickles).
        const turn = pause();
        if ((used > 0 || unflushed) && (turn || !(await settlesNow(pending)))) {
          await putBuffer();
          flush();
        }
        await turn;
        step = await pending;
        if (!step.done) pieces = encode(step.value);
      }
    } catch (error) {
      await add(JSON.stringify({ error: toApiError(error, request.log).toWire() }) + '\n');
    } finally {
      if (!step.done) await iterator.return?.();
    }
    await putBuffer();
    body.end();
  }
  write().catch((error: unknown) => body.destroy(error as Error));

  reply.code(200).header('content-type', 'application/json').header('cache-control', 'no-store');
  if (encoding) reply.header('content-encoding', encoding).header('vary', varyOn(reply));
  return reply.send(body);
}

/** The reply's Vary header with Accept-Encoding added. */
function varyOn(reply: FastifyReply): string {
  const vary = reply.getHeader('vary');
  const values = (Array.isArray(vary) ? vary.join(',') : String(vary ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (!values.some((value) => value === '*' || value.toLowerCase() === 'accept-encoding'))
    values.push('accept-encoding');
  return values.join(', ');
}

const encodeMessage = (message: unknown) => [
  JSON.stringify({ result: messageJson(message) }) + '\n',
];
const encodeRun = (run: unknown) => (run as MessageRun).resultLines();
