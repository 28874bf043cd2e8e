/** How a large text file shows: its first and last bytes, and what lies between. */

/** Bytes read for the head, the tail, and each "load more". */
export const LARGE_TEXT_CHUNK_BYTES = 64 * 1024;

export interface HeadTail {
  /** Complete lines from the start (a line cut by the end of the bytes read waits for more). */
  head: string;
  /** Complete lines to the end (the first, cut line of the tail bytes is left out). */
  tail: string;
  /** Bytes neither shown in the head nor in the tail; 0 once they meet. */
  hiddenBytes: number;
}

const decoder = () => new TextDecoder('utf-8');
const NEWLINE = 0x0a;

/**
 * Head and tail text of a file of `size` bytes from its first `headBytes` and its last
 * `tailBytes`. Lines are cut at newlines (so a multi-byte character is never split): when the
 * two parts meet or overlap, the whole text is the head and the tail is empty.
 */
export function headAndTail(size: number, headBytes: Uint8Array, tailBytes: Uint8Array): HeadTail {
  const tailStart = size - tailBytes.length;
  if (headBytes.length >= tailStart) {
    const whole = new Uint8Array(size);
    whole.set(tailBytes, tailStart);
    whole.set(headBytes.subarray(0, size), 0);
    return { head: decoder().decode(whole), tail: '', hiddenBytes: 0 };
  }
  const headEnd = headBytes.lastIndexOf(NEWLINE) + 1;
  const firstNewline = tailBytes.indexOf(NEWLINE);
  const tailFrom = firstNewline === -1 ? tailBytes.length : firstNewline + 1;
  return {
    head: decoder().decode(headBytes.subarray(0, headEnd)),
    tail: decoder().decode(tailBytes.subarray(tailFrom)),
    hiddenBytes: tailStart + tailFrom - headEnd,
  };
}

/** Appends a chunk to the head bytes read so far. */
export function appendBytes(first: Uint8Array, next: Uint8Array): Uint8Array {
  const out = new Uint8Array(first.length + next.length);
  out.set(first, 0);
  out.set(next, first.length);
  return out;
}
