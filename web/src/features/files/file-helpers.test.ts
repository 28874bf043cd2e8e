import { describe, expect, it } from 'vitest';
import { baseName, filePathOf, folderPath, parentFolder } from './file-path.ts';

describe('file paths', () => {
  it('turns route splats into platform paths', () => {
    expect(folderPath('')).toBe('/');
    expect(folderPath('a/b')).toBe('/a/b/');
    expect(filePathOf('a/b.txt')).toBe('/a/b.txt');
    expect(parentFolder('/a/b.txt')).toBe('/a/');
    expect(parentFolder('/b.txt')).toBe('/');
    expect(baseName('/a/b/')).toBe('b');
  });
});
