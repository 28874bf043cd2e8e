import { describe, expect, it } from 'vitest';
import {
  initialUploadState,
  itemForPick,
  totalProgress,
  uploadBlocker,
  uploadReducer,
  type UploadScreenState,
} from './upload-state.ts';

const pick = (relativePath: string, content = 'x') => ({
  file: new File([content], relativePath.split('/').at(-1) ?? relativePath),
  relativePath,
});

describe('upload screen state', () => {
  it('adds picked files as one-session items named by their relative path, without duplicates', () => {
    let state = initialUploadState();
    state = uploadReducer(state, {
      type: 'add',
      files: [pick('set/a.txt'), pick('set/sub/b.txt')],
    });
    state = uploadReducer(state, { type: 'add', files: [pick('set/a.txt')] });
    expect(state.items.map((item) => [item.relativePath, item.file.name, item.dirPath])).toEqual([
      ['set/a.txt', 'set/a.txt', ''],
      ['set/sub/b.txt', 'set/sub/b.txt', ''],
    ]);
  });

  it('blocks the upload until there are files, a path and a branch', () => {
    let state = initialUploadState();
    expect(uploadBlocker(state)).toBe('Add files or a folder first');
    state = uploadReducer(state, { type: 'add', files: [pick('a.txt')] });
    expect(uploadBlocker(state)).toBeNull();
    state = uploadReducer(state, { type: 'setPath', path: '   ' });
    expect(uploadBlocker(state)).toBe('A path is required');
    state = uploadReducer(state, { type: 'setPath', path: ' /in ' });
    expect(state.path).toBe('/in');
    state = uploadReducer(state, { type: 'setBranch', branch: '' });
    expect(uploadBlocker(state)).toBe('A branch is required');
  });

  it('runs through uploading, finishing and done with the new commit', () => {
    let state: UploadScreenState = uploadReducer(initialUploadState(), {
      type: 'add',
      files: [pick('a.txt')],
    });
    state = uploadReducer(state, { type: 'start' });
    expect(state.phase).toBe('uploading');
    expect(state.items[0]?.status).toBe('pending');
    expect(uploadBlocker(state)).toBe('An upload is running');
    expect(uploadReducer(state, { type: 'remove', relativePath: 'a.txt' }).items).toHaveLength(1);
    state = uploadReducer(state, {
      type: 'progress',
      items: state.items.map((item) => ({ ...item, progress: 100, status: 'success' })),
    });
    expect(totalProgress(state.items)).toBe(100);
    state = uploadReducer(state, { type: 'finishing' });
    state = uploadReducer(state, { type: 'done', commitId: 'c9' });
    expect(state).toMatchObject({ phase: 'done', commitId: 'c9', error: null });
    // New files after a finished upload start a new list.
    state = uploadReducer(state, { type: 'add', files: [pick('b.txt')] });
    expect(state.items.map((item) => item.relativePath)).toEqual(['b.txt']);
    expect(state.phase).toBe('editing');
  });

  it('keeps a cancellation from being overwritten by the failure it causes', () => {
    let state = uploadReducer(initialUploadState(), { type: 'add', files: [pick('a.txt')] });
    state = uploadReducer(state, { type: 'start' });
    state = uploadReducer(state, { type: 'cancelled' });
    state = uploadReducer(state, { type: 'failed', error: 'upload file failed.' });
    expect(state).toMatchObject({ phase: 'cancelled', error: 'Upload cancelled' });
    expect(uploadBlocker(state)).toBeNull();
  });

  it('keeps the bytes of a renamed item', async () => {
    const item = itemForPick(pick('dir/z.txt', 'hello'));
    expect(await item.file.text()).toBe('hello');
  });
});
