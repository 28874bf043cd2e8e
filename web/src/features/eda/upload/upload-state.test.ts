import { describe, expect, it } from 'vitest';
import type { UploadItem } from '@ivory/api';
import { initialUploadState, progressStatus, uploadButton, uploadReducer } from './upload-state.ts';

const file = (relative: string, size = 1) =>
  Object.assign(new Blob([new Uint8Array(size)]), {
    name: relative.split('/').pop() ?? relative,
    webkitRelativePath: relative,
  });

const withFiles = (...paths: string[]) =>
  uploadReducer(initialUploadState, { type: 'addFiles', files: paths.map((p) => file(p)) });

describe('upload modal state', () => {
  it('defaults: path /rtl, empty message, no files, Upload disabled', () => {
    expect(initialUploadState.path).toBe('/rtl');
    expect(initialUploadState.description).toBe('');
    expect(uploadButton(initialUploadState)).toEqual({ disabled: true, label: 'Upload' });
  });

  it('trims the path on change and requires it', () => {
    let state = uploadReducer(initialUploadState, { type: 'setPath', value: '   ' });
    expect(state.path).toBe('');
    expect(state.pathError).toBe('A path is required');
    state = uploadReducer(state, { type: 'setPath', value: ' /rtl/x ' });
    expect(state.path).toBe('/rtl/x');
    expect(state.pathInput).toBe(' /rtl/x ');
    expect(state.pathError).toBeNull();
  });

  it('trims the optional commit message', () => {
    const state = uploadReducer(initialUploadState, { type: 'setDescription', value: '  msg ' });
    expect(state.description).toBe('msg');
  });

  it('adds files by relative path without duplicates and deletes by relative path', () => {
    let state = withFiles('p/a.v', 'p/src/a.v', 'p/b.v');
    expect(state.items.map((item) => item.relativePath)).toEqual(['p/a.v', 'p/src/a.v', 'p/b.v']);
    state = uploadReducer(state, { type: 'addFiles', files: [file('p/a.v', 5)] });
    expect(state.items).toHaveLength(3);
    state = uploadReducer(state, { type: 'remove', relativePath: 'p/src/a.v' });
    expect(state.items.map((item) => item.relativePath)).toEqual(['p/b.v', 'p/a.v']);
    expect(uploadReducer(state, { type: 'clear' }).items).toEqual([]);
  });

  it('Upload/Done: disabled with no files or a loading one; Done when all succeeded', () => {
    const state = withFiles('p/a.v', 'p/b.v');
    expect(uploadButton(state)).toEqual({ disabled: false, label: 'Upload' });
    const set = (statuses: UploadItem['status'][]) => ({
      ...state,
      items: state.items.map((item, i) => ({ ...item, status: statuses[i]! })),
    });
    expect(uploadButton(set(['loading', 'normal']))).toEqual({ disabled: true, label: 'Upload' });
    expect(uploadButton(set(['success', 'error']))).toEqual({ disabled: false, label: 'Upload' });
    expect(uploadButton(set(['success', 'success']))).toEqual({ disabled: false, label: 'Done' });
  });

  it('merges engine snapshots by relative path; a deleted file stays deleted', () => {
    const state = withFiles('p/a.v', 'p/b.v');
    const snapshot = state.items.map((item) => ({
      ...item,
      uploadId: 'u1',
      progress: 50,
      status: 'loading' as const,
    }));
    const removed = uploadReducer(state, { type: 'remove', relativePath: 'p/b.v' });
    const merged = uploadReducer(removed, { type: 'progress', items: snapshot });
    expect(merged.items).toHaveLength(1);
    expect(merged.items[0]).toMatchObject({ uploadId: 'u1', progress: 50, status: 'loading' });
  });

  it('maps item states onto antd Progress statuses (100 becomes success)', () => {
    const [item] = withFiles('a.v').items;
    expect(progressStatus(item!)).toBe('normal');
    expect(progressStatus({ ...item!, status: 'loading' })).toBe('active');
    expect(progressStatus({ ...item!, status: 'error', progress: 33 })).toBe('exception');
    expect(progressStatus({ ...item!, status: 'loading', progress: 100 })).toBe('success');
  });
});
