import { messageJson } from './wire.ts';

/**
 * Server streams whose messages come in runs that can write their own NDJSON lines.
 *
 * A listing of 100,000 files is 100,000 messages: made one object at a time, passed one at a
 * time through async iterators and each turned into JSON on its own, the per-message costs
 * were most of the call. A handler that makes its messages from rows a chunk at a time can
 * return a RunStream instead: iterated as usual (gRPC, the authorizer's wrapper, any other
 * consumer), it yields one plain message at a time, exactly as before; the HTTP gateway asks
 * for its runs instead, and writes each run's lines (made straight from the rows, without the
 * message objects) in one piece.
 */

/** Messages made together from rows of one chunk. */
export interface MessageRun {
  /** The run's messages, as plain objects (what a per-message consumer gets). */
  messages(): Iterable<unknown>;
  /**
   * The run's NDJSON lines, one `{"result":<message>}\n` per message: byte for byte what
   * `JSON.stringify({ result: message }) + '\n'` makes of each of messages(), in pieces of
   * whole lines (see linePieceChars).
   */
  resultLines(): string[];
}

/**
 * About how long a piece of resultLines may grow. A piece stays well below V8's large-object
 * size (strings over about 128 KiB live until a full collection): whole 400 KiB runs raised a
 * 1M-entry listing's peak RSS from 180 to 290 MB.
 */
export const linePieceChars = 32 * 1024;

const runsOf: unique symbol = Symbol('message runs');

/** A server stream that can also be read a run at a time (readRuns). */
export interface RunStream extends AsyncIterable<unknown> {
  readonly [runsOf]: () => AsyncIterable<MessageRun>;
}

/**
 * A server stream made of runs. `runs` starts the work when the stream is read, one way or the
 * other (each RunStream is read once: either its messages or its runs).
 */
export function runStream(runs: () => AsyncIterable<MessageRun>): RunStream {
  return {
    [runsOf]: runs,
    async *[Symbol.asyncIterator]() {
      for await (const run of runs()) yield* run.messages();
    },
  };
}

/** The stream's runs when it has them (a RunStream), or null: read it a message at a time. */
export function readRuns(stream: AsyncIterable<unknown>): AsyncIterable<MessageRun> | null {
  const runs = (stream as Partial<RunStream>)[runsOf];
  return typeof runs === 'function' ? runs() : null;
}

/** One message as a run of its own (bytes as base64, as the gateway writes any message). */
const singleRun = (message: unknown): MessageRun => ({
  messages: () => [message],
  resultLines: () => [JSON.stringify({ result: messageJson(message) }) + '\n'],
});

/**
 * The stream `open` makes when the stream is first read, `open`'s `end` called after its last
 * message: for wrappers that act before and after a stream (a role check) but not on its
 * messages, so the wrapped stream keeps its runs (readRuns) when it has them.
 */
export function aroundStream(
  open: () => { stream: AsyncIterable<unknown>; end?: () => void },
): RunStream {
  return runStream(async function* () {
    const { stream, end } = open();
    const runs = readRuns(stream);
    if (runs) yield* runs;
    else for await (const message of stream) yield singleRun(message);
    end?.();
  });
}
