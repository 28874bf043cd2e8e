import { describe, expect, it } from 'vitest';
import type { FileInfo } from '@ivory/api';
import { previewKind } from './file-kind.ts';
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

describe('previewKind', () => {
  const info = (path: string, sizeBytes = '10', fileType: FileInfo['fileType'] = 'FILE') =>
    ({ file: { path }, fileType, sizeBytes }) as FileInfo;
  it.each<[FileInfo, string]>([
    [info('/a.png'), 'image'],
    [info('/top.v'), 'text'],
    [info('/big.txt', String(2 * 1024 * 1024)), 'none'],
    [info('/blob.bin'), 'none'],
    [info('/dir/', '0', 'DIR'), 'none'],
  ])('%o → %s', (file, expected) => {
    expect(previewKind(file)).toBe(expected);
  });
});
