import type { Readable } from 'node:stream';
import { invalidArgument } from '../errors.ts';

/** Parses newline-delimited JSON from a byte stream, one message at a time. */
export async function* readNdjson(source: Readable): AsyncIterable<unknown> {
  let pending: Buffer[] = [];
  let lineNumber = 0;
  const parse = (bytes: Buffer): unknown => {
    lineNumber++;
    const text = bytes.toString('utf8').trim();
    if (text === '') return undefined;
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
      if (message !== undefined) yield message;
      buffer = buffer.subarray(newline + 1);
      newline = buffer.indexOf(10);
    }
    if (buffer.length > 0) pending.push(buffer);
  }
  if (pending.length > 0) {
    const message = parse(Buffer.concat(pending));
    if (message !== undefined) yield message;
  }
}
