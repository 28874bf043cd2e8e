import type { Readable } from 'node:stream';
import { invalidArgument } from '../errors.ts';
import { checkJsonDepth } from './request-limits.ts';

/** The longest one message (line) may be: a 48 MiB file chunk in base64 fits. */
export const maxNdjsonLineBytes = 64 * 1024 * 1024;

/**
 * Parses newline-delimited JSON from a byte stream, one message at a time. A line longer than
 * maxNdjsonLineBytes is an error as soon as it grows past the limit (never buffered whole).
 */
export async function* readNdjson(source: Readable): AsyncIterable<unknown> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  const parse = (bytes: Buffer): unknown => {
    lineNumber++;
    const text = bytes.toString('utf8').trim();
    if (text === '') return undefined;
    checkJsonDepth(text, `line ${lineNumber}`);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw invalidArgument(`invalid JSON on line ${lineNumber}: ${(error as Error).message}`);
    }
  };
  for await (const chunk of source) {
    let buffer = chunk as Buffer;
    let newline = buffer.indexOf(10);
    while (newline !== -1) {
      pending.push(buffer.subarray(0, newline));
      const message = parse(Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
      if (message !== undefined) yield message;
      buffer = buffer.subarray(newline + 1);
      newline = buffer.indexOf(10);
    }
    if (buffer.length > 0) {
      pending.push(buffer);
      pendingBytes += buffer.length;
      if (pendingBytes > maxNdjsonLineBytes)
        throw invalidArgument(
          `line ${lineNumber + 1} is longer than the 64 MiB limit for one message: send a large file in several addFile messages`,
        );
    }
  }
  if (pending.length > 0) {
    const message = parse(Buffer.concat(pending));
    if (message !== undefined) yield message;
  }
}
