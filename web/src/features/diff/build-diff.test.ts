import { describe, expect, it } from 'vitest';
import type { DiffFileResponse, FileInfo } from '@ivory/api';
import { changedFiles, sideBySide } from './build-diff.ts';

const file = (path: string, hash: string, size = 1, fileType: FileInfo['fileType'] = 'FILE') =>
  ({ file: { path }, hash, sizeBytes: String(size), fileType }) as FileInfo;

describe('changedFiles', () => {
  it('sorts added, removed and changed files by path and leaves folders out', () => {
    const responses: DiffFileResponse[] = [
      { newFile: file('/b.txt', 'h2', 20), oldFile: file('/b.txt', 'h1', 10) },
      { newFile: file('/a.txt', 'h3', 5), oldFile: null },
      { newFile: null, oldFile: file('/c.txt', 'h4', 7) },
      { newFile: file('/dir/', '', 0, 'DIR'), oldFile: null },
      { newFile: file('/same.txt', 'h5'), oldFile: file('/same.txt', 'h5') },
    ];
    expect(changedFiles(responses)).toEqual([
      { path: '/a.txt', change: 'added', oldSize: null, newSize: 5 },
      { path: '/b.txt', change: 'changed', oldSize: 10, newSize: 20 },
      { path: '/c.txt', change: 'removed', oldSize: 7, newSize: null },
    ]);
  });
});

describe('sideBySide', () => {
  it('pairs removed with added lines and keeps unchanged lines aligned', () => {
    const rows = sideBySide('a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(rows).toEqual([
      { left: { line: 1, text: 'a', kind: 'same' }, right: { line: 1, text: 'a', kind: 'same' } },
      {
        left: { line: 2, text: 'b', kind: 'removed' },
        right: { line: 2, text: 'B', kind: 'added' },
      },
      { left: { line: 3, text: 'c', kind: 'same' }, right: { line: 3, text: 'c', kind: 'same' } },
      { left: null, right: { line: 4, text: 'd', kind: 'added' } },
    ]);
  });
  it('shows a whole new file on the right', () => {
    expect(sideBySide('', 'x\ny')).toEqual([
      { left: null, right: { line: 1, text: 'x', kind: 'added' } },
      { left: null, right: { line: 2, text: 'y', kind: 'added' } },
    ]);
  });
});
