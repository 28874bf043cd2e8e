import { describe, expect, it } from 'vitest';
import { appendBytes, headAndTail } from './large-text.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('head and tail of a large text file', () => {
  const text = 'line 1\nline 2\nline 3\nline 4\nline 5\n';
  const all = bytes(text);

  it('shows complete lines of the head and the tail, and counts the bytes between', () => {
    const shown = headAndTail(all.length, all.subarray(0, 10), all.subarray(all.length - 10));
    expect(shown.head).toBe('line 1\n');
    expect(shown.tail).toBe('line 5\n');
    expect(shown.hiddenBytes).toBe(all.length - 'line 1\n'.length - 'line 5\n'.length);
  });

  it('gives the whole text once the head reaches the tail', () => {
    const head = appendBytes(all.subarray(0, 10), all.subarray(10, 25));
    const shown = headAndTail(all.length, head, all.subarray(all.length - 12));
    expect(shown).toEqual({ head: text, tail: '', hiddenBytes: 0 });
  });

  it('never splits a multi-byte character at a cut', () => {
    const wide = bytes('ééé\nabc\nñññ\n');
    const shown = headAndTail(wide.length, wide.subarray(0, 5), wide.subarray(wide.length - 5));
    expect(shown.head).toBe('');
    expect(shown.tail).toBe('');
    expect(shown.head + shown.tail).not.toContain('\uFFFD');
  });
});
