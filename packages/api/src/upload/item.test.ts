import { describe, expect, it } from 'vitest';
import {
  CHUNK_SIZE,
  chunkCount,
  chunkProgress,
  chunkRange,
  createUploadItem,
  dirPathOf,
  distinctUploadIds,
  groupByDirPath,
  joinUploadPath,
  missingChunks,
  removeUploadItem,
  uploadButtonState,
  validateUploadPath,
  type UploadItem,
} from './item.ts';

const file = (name: string, size = 1, relative = '') =>
  Object.assign(new Blob([new Uint8Array(size)]), { name, webkitRelativePath: relative });

describe('dirPath', () => {
  it.each([
    ['rtl/user_plugin/a.v', 'rtl/user_plugin'],
    ['top.v', ''],
    ['/lead/slash/x', 'lead/slash'],
  ])('%s → %s', (relative, expected) => {
    expect(dirPathOf(relative)).toBe(expected);
  });

  it('comes from webkitRelativePath, else the name', () => {
    expect(createUploadItem(file('a.v', 1, 'plug/src/a.v'))).toMatchObject({
      relativePath: 'plug/src/a.v',
      dirPath: 'plug/src',
      uploadId: '',
      progress: 0,
      status: 'normal',
    });
    expect(createUploadItem(file('b.v')).dirPath).toBe('');
  });
});

describe('joinUploadPath', () => {
  it.each([
    ['/rtl', 'plug/src', '/rtl/plug/src'],
    ['/rtl/', 'plug', '/rtl/plug'],
    ['  /rtl  ', '', '/rtl'],
    ['rtl', 'x', '/rtl/x'],
    ['/', '', '/'],
    ['/', 'a', '/a'],
  ])('%j + %j → %j', (base, dir, expected) => {
    expect(joinUploadPath(base, dir)).toBe(expected);
  });

  it('requires a path', () => {
    expect(validateUploadPath('   ')).toBe('A path is required');
    expect(validateUploadPath('/rtl')).toBeNull();
  });
});

describe('grouping', () => {
  const items = ['a/1', 'b/2', 'a/3', '4'].map((path) =>
    createUploadItem(file(path.split('/').pop() ?? ''), path),
  );

  it('groups by dirPath in first-seen order (one start call per group)', () => {
    const groups = groupByDirPath(items);
    expect([...groups.keys()]).toEqual(['a', 'b', '']);
    expect(groups.get('a')?.map((item) => item.relativePath)).toEqual(['a/1', 'a/3']);
  });

  it('finishes each distinct uploadId once', () => {
    const withIds: UploadItem[] = items.map((item) => ({
      ...item,
      uploadId: item.dirPath === 'b' ? 'u2' : 'u1',
    }));
    expect(distinctUploadIds(withIds)).toEqual(['u1', 'u2']);
  });

  it('removes one item by relative path', () => {
    expect(removeUploadItem(items, 'a/3').map((item) => item.relativePath)).toEqual([
      'a/1',
      'b/2',
      '4',
    ]);
  });
});

describe('chunk math', () => {
  it('counts 20 MiB chunks, at least one', () => {
    expect(CHUNK_SIZE).toBe(20 * 1024 * 1024);
    expect(chunkCount(0)).toBe(1);
    expect(chunkCount(CHUNK_SIZE)).toBe(1);
    expect(chunkCount(CHUNK_SIZE + 1)).toBe(2);
    expect(chunkCount(10, 3)).toBe(4);
  });
  it('gives byte ranges with a short last chunk', () => {
    expect(chunkRange(0, 10, 4)).toEqual({ start: 0, end: 4 });
    expect(chunkRange(2, 10, 4)).toEqual({ start: 8, end: 10 });
  });
  it('computes progress and missing chunks', () => {
    expect(chunkProgress(1, 3)).toBe(33);
    expect(chunkProgress(3, 3)).toBe(100);
    expect(missingChunks(5, [0, 2, 3])).toEqual([1, 4]);
  });
});

describe('uploadButtonState', () => {
  const base = createUploadItem(file('x'));
  it.each<[string, UploadItem[], { disabled: boolean; label: string }]>([
    ['no files', [], { disabled: true, label: 'Upload' }],
    ['a loading file', [{ ...base, status: 'loading' }], { disabled: true, label: 'Upload' }],
    ['ready files', [base], { disabled: false, label: 'Upload' }],
    [
      'all success',
      [{ ...base, status: 'success', progress: 100 }],
      { disabled: false, label: 'Done' },
    ],
  ])('%s', (_name, items, expected) => {
    expect(uploadButtonState(items)).toEqual(expected);
  });
});
