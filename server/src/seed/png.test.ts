import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderPng } from './png.ts';

describe('renderPng', () => {
  it('writes a PNG signature, IHDR and inflatable pixel rows', () => {
    const png = renderPng(4, 3, () => [255, 0, 0]);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(4);
    expect(png.readUInt32BE(20)).toBe(3);
    const idatLength = png.readUInt32BE(33);
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    expect(rows.length).toBe(3 * (1 + 4 * 3));
  });
});
