import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchPrefix } from './file-prefix.ts';
import { firstRowsOf, gunzipPrefix, parseFirstRows } from './load.ts';

afterEach(() => vi.unstubAllGlobals());

describe('parseFirstRows', () => {
  it('splits a header from rows, with quoting', () => {
    const parsed = parseFirstRows('a,b\n1,"x, y"\n2,z\n', { truncated: false });
    expect(parsed).toEqual({
      header: ['a', 'b'],
      rows: [
        ['1', 'x, y'],
        ['2', 'z'],
      ],
      truncated: false,
    });
  });
  it('drops a cut last line of a prefix and says more rows exist', () => {
    const parsed = parseFirstRows('a,b\n1,2\n3,4\n5,', { truncated: true });
    expect(parsed.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parsed.truncated).toBe(true);
  });
  it('stops after maxRows', () => {
    const text = 'n\n' + Array.from({ length: 50 }, (_, i) => `${i}\n`).join('');
    const parsed = parseFirstRows(text, { truncated: false, maxRows: 10 });
    expect(parsed.rows).toHaveLength(10);
    expect(parsed.rows[9]).toEqual(['9']);
    expect(parsed.truncated).toBe(true);
  });
  it('reads TSV with a tab delimiter', () => {
    expect(parseFirstRows('a\tb\n1\t2\n', { truncated: false, delimiter: '\t' }).rows).toEqual([
      ['1', '2'],
    ]);
  });
});

describe('prefix reads', () => {
  it('asks for a byte range and knows the file is longer from Content-Range', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response('h\n1\n2\n3', {
          status: 206,
          headers: { 'content-range': 'bytes 0-6/1073741824' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const rows = firstRowsOf(await fetchPrefix('/files/p/r/c/big.csv', 7));
    expect(fetchMock).toHaveBeenCalledWith('/files/p/r/c/big.csv', {
      headers: { Range: 'bytes=0-6' },
      signal: undefined,
    });
    expect(rows).toEqual({ header: ['h'], rows: [['1'], ['2']], truncated: true });
  });

  it('cuts off a server that ignores the range after maxBytes', async () => {
    vi.stubGlobal('fetch', async () => new Response('x'.repeat(10_000)));
    const prefix = await fetchPrefix('/f', 100);
    expect(prefix.bytes.length).toBe(100);
    expect(prefix.truncated).toBe(true);
  });

  it('inflates the start of a gzip prefix', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const whole = new Uint8Array(gzipSync(text));
    expect((await gunzipPrefix({ bytes: whole, truncated: false })).text).toBe(text);
    const cut = await gunzipPrefix({ bytes: whole.slice(0, whole.length / 2), truncated: true });
    expect(cut.truncated).toBe(true);
    expect(text.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeGreaterThan(0);
  });
});
