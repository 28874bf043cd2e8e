import { Worker } from 'node:worker_threads';

/**
 * The hasher thread hashes and writes a chunk in pieces of this size, each piece written right
 * after it is hashed (still in the CPU cache). One write(2) of a whole 4 MiB message lets the
 * kernel back it with large page-cache folios, whose allocation on this VM cost far more than the
 * copy: 0.2-0.65 s of the thread's kernel time per 256 MiB, against 0.11-0.14 s in 64 KiB writes
 * (perf/grpc-throughput.ts, alternating runs). copyFile's in-kernel copy also goes 64 KiB at a time.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * The worker's code (CommonJS, evaluated): per writer, a sha256 and positional writes to its file
 * descriptor, PIECE_BYTES at a time. Chunks arrive as transferred ArrayBuffers, so the event loop
 * neither hashes nor holds them: a large ModifyFile's bytes stop counting as the main heap's
 * external memory the moment they are handed over (each 64 MiB of that memory starts a full
 * garbage collection).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { writeSync } = require('node:fs');
const files = new Map();
const PIECE_BYTES = ${PIECE_BYTES};
parentPort.on('message', (m) => {
  if (m.op === 'open') {
    files.set(m.id, { fd: m.fd, hash: createHash('sha256'), error: null });
    return;
  }
  const file = files.get(m.id);
  if (!file) return;
  if (m.op === 'write') {
    if (!file.error) {
      try {
        const bytes = new Uint8Array(m.buffer, m.offset, m.length);
        for (let at = 0; at < m.length; at += PIECE_BYTES) {
          const piece = bytes.subarray(at, at + PIECE_BYTES);
          file.hash.update(piece);
          for (let done = 0; done < piece.length; )
            done += writeSync(file.fd, piece, done, piece.length - done, m.position + at + done);
        }
      } catch (error) {
        // (A thread's Error loses its code on the way: it goes as fields.)
        file.error = { message: String(error && error.message), code: error && error.code };
      }
    }
    parentPort.postMessage({ id: m.id, op: 'written', length: m.length, error: file.error });
  } else {
    files.delete(m.id);
    const hash = m.op === 'finish' && !file.error ? file.hash.digest('hex') : null;
    parentPort.postMessage({ id: m.id, op: 'closed', hash, error: file.error });
  }
});
`;

interface Written {
  op: 'written';
  id: number;
  length: number;
  error: unknown;
}
interface Closed {
  op: 'closed';
  id: number;
  hash: string | null;
  error: unknown;
}

/** A write error as the worker sends it ({message, code}) made an Error again, with its code. */
function threadError(sent: unknown): unknown {
  if (!sent || typeof sent !== 'object') return sent;
  const { message, code } = sent as { message?: unknown; code?: unknown };
  return Object.assign(new Error(String(message)), typeof code === 'string' ? { code } : {});
}

/** What one writer hears back from the worker. */
export interface HasherListener {
  written(length: number, error: unknown): void;
  closed(hash: string | null, error: unknown): void;
}

/**
 * One worker thread shared by the blob writers that hand their chunks over (BlobWriter with
 * `offThread`). Started on first use; it does not keep the process alive.
 */
export class BlobHasher {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly listeners = new Map<number, HasherListener>();

  private start(): Worker {
    if (this.worker) return this.worker;
    // Plain JavaScript: no loader flags (tsx) needed in the thread.
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    worker.unref();
    worker.on('message', (message: Written | Closed) => {
      const listener = this.listeners.get(message.id);
      if (!listener) return;
      if (message.op === 'written') {
        listener.written(message.length, threadError(message.error));
      } else {
        this.listeners.delete(message.id);
        listener.closed(message.hash, threadError(message.error));
      }
    });
    const fail = (error: unknown) => {
      // 'error' is followed by 'exit': only the first, and only for the current worker, counts.
      if (this.worker !== worker) return;
      this.worker = null;
      const listeners = [...this.listeners.values()];
      this.listeners.clear();
      const cause = error instanceof Error ? error : new Error('the blob hasher stopped');
      for (const listener of listeners) listener.closed(null, cause);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the blob hasher exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Registers a writer of file descriptor `fd`; returns its id. */
  open(fd: number, listener: HasherListener): number {
    const id = this.nextId++;
    this.listeners.set(id, listener);
    this.start().postMessage({ op: 'open', id, fd });
    return id;
  }

  /**
   * Hashes and writes `bytes` at `position`. The bytes are handed over: their ArrayBuffer is
   * transferred (detached here) when `bytes` spans nearly all of it, and copied otherwise.
   */
  write(id: number, bytes: Uint8Array, position: number): void {
    const worker = this.start();
    const { buffer } = bytes;
    if (
      buffer instanceof ArrayBuffer &&
      buffer.byteLength - bytes.byteLength <= HANDOVER_SLACK_BYTES
    ) {
      const message = { op: 'write', id, buffer, offset: bytes.byteOffset, length: bytes.length };
      try {
        worker.postMessage({ ...message, position }, [buffer]);
        return;
      } catch {
        // Not transferable (Node's shared Buffer pool): copied below.
      }
    }
    const copy = new Uint8Array(bytes);
    worker.postMessage(
      { op: 'write', id, buffer: copy.buffer, offset: 0, length: copy.length, position },
      [copy.buffer],
    );
  }

  /** Ends a writer: `closed` hears the sha256 of all its bytes (or null after `abort`). */
  close(id: number, op: 'finish' | 'abort'): void {
    // A writer whose thread died has heard `closed` already.
    if (!this.listeners.has(id)) return;
    this.start().postMessage({ op, id });
  }
}

/**
 * A chunk whose ArrayBuffer holds at most this many other bytes is the whole of a received
 * message (a gRPC message's protobuf header, or nothing for a base64-decoded chunk): its buffer is
 * transferred rather than copied.
 */
const HANDOVER_SLACK_BYTES = 256;
