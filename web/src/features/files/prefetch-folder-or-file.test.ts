import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileInfo, FileType } from '@ivory/api';
import { queryKeys } from '../../data/query-keys.ts';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { rendererQuery } from '../preview/renderers/index.ts';
import { prefetchFolderOrFile } from './prefetch-folder-or-file.ts';

const commit = {
  repo: { name: 'tables', type: 'user', project: { name: 'default' } },
  id: 'c1',
  branch: null,
};
const ref = { project: 'default', repo: 'tables', commitId: 'c1' };

function info(path: string, fileType: FileType = 'FILE'): FileInfo {
  return {
    file: { commit, path, datum: '' },
    fileType,
    committed: null,
    sizeBytes: '40',
    hash: '',
  };
}

function setup(inspected: FileInfo | null) {
  const client = createFakeApiClient({
    'pfs_v2.API/InspectFile': () => inspected,
    'pfs_v2.API/ListFile': (body) => [info(`${(body as { file: { path: string } }).file.path}x`)],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const methods = () => client.calls.map((call) => call.method);
  return { client, queryClient, methods };
}

describe('prefetchFolderOrFile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists a folder path at once, under the file browser’s query key', async () => {
    const { client, queryClient, methods } = setup(null);
    await prefetchFolderOrFile(queryClient, client, { ...ref, path: 'a/b/' });
    expect(methods()).toEqual(['pfs_v2.API/ListFile']);
    expect(queryClient.getQueryData(queryKeys.files('default', 'tables', 'c1', '/a/b/'))).toEqual({
      pages: [{ files: [info('/a/b/x')], nextMarker: null }],
      pageParams: [null],
    });
  });

  it('for a file: InspectFile, its folder and the first rows of its preview', async () => {
    const fetchFile = vi.fn(async () => new Response('id,name\n1,one\n'));
    vi.stubGlobal('fetch', fetchFile);
    const { client, queryClient, methods } = setup(info('/a/t.csv'));
    await prefetchFolderOrFile(queryClient, client, { ...ref, path: 'a/t.csv' });
    expect(methods()).toEqual(['pfs_v2.API/InspectFile', 'pfs_v2.API/ListFile']);
    expect(
      queryClient.getQueryData(queryKeys.files('default', 'tables', 'c1', '/a/')),
    ).toBeTruthy();
    expect(fetchFile).toHaveBeenCalledOnce();
    expect(
      queryClient.getQueryData(queryKeys.filePreview('/files/default/tables/c1/a/t.csv', 'csv')),
    ).toEqual({ header: ['id', 'name'], rows: [['1', 'one']], truncated: false });
  });

  it("reads a CSV's first bytes without waiting for InspectFile, not a size-limited file's", async () => {
    const fetchFile = vi.fn(async () => new Response('id,name\n1,one\n'));
    vi.stubGlobal('fetch', fetchFile);
    const answers: Array<() => void> = [];
    const client = createFakeApiClient({
      'pfs_v2.API/InspectFile': (body) =>
        new Promise((resolve) =>
          answers.push(() => resolve(info((body as { file: { path: string } }).file.path))),
        ),
      'pfs_v2.API/ListFile': () => [],
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

    const csv = prefetchFolderOrFile(queryClient, client, { ...ref, path: 'a/t.csv' });
    await vi.waitFor(() => expect(fetchFile).toHaveBeenCalled());
    expect(fetchFile).toHaveBeenCalledWith('/files/default/tables/c1/a/t.csv', expect.anything());
    expect(answers).toHaveLength(1);
    answers.shift()?.();
    await csv;
    expect(fetchFile).toHaveBeenCalledOnce();

    // A gz file's too: its renderer also shows a file of any size from its first bytes.
    const gz = prefetchFolderOrFile(queryClient, client, { ...ref, path: 'a/logs.gz' });
    await vi.waitFor(() => expect(fetchFile).toHaveBeenCalledTimes(2));
    expect(fetchFile).toHaveBeenLastCalledWith(
      '/files/default/tables/c1/a/logs.gz',
      expect.objectContaining({ headers: { Range: 'bytes=0-262143' } }),
    );
    expect(answers).toHaveLength(1);
    answers.shift()?.();
    await gz;
    expect(fetchFile).toHaveBeenCalledTimes(2);

    const markdown = prefetchFolderOrFile(queryClient, client, { ...ref, path: 'a/notes.md' });
    await queryClient.ensureQueryData(rendererQuery('markdown'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchFile).toHaveBeenCalledTimes(2);
    answers.shift()?.();
    await markdown;
    expect(fetchFile).toHaveBeenCalledTimes(3);
    expect(fetchFile).toHaveBeenLastCalledWith(
      '/files/default/tables/c1/a/notes.md',
      expect.anything(),
    );
  });

  it('lists a path that InspectFile calls a folder', async () => {
    const { client, queryClient, methods } = setup(info('/a/dir.csv', 'DIR'));
    await prefetchFolderOrFile(queryClient, client, { ...ref, path: 'a/dir.csv' });
    expect(methods()).toEqual(['pfs_v2.API/InspectFile', 'pfs_v2.API/ListFile']);
    expect(
      queryClient.getQueryData(queryKeys.files('default', 'tables', 'c1', '/a/dir.csv/')),
    ).toBeTruthy();
  });

  it('fetches nothing already cached, and never fails', async () => {
    const { client, queryClient, methods } = setup(null);
    await prefetchFolderOrFile(queryClient, client, { ...ref, path: '' });
    await prefetchFolderOrFile(queryClient, client, { ...ref, path: '' });
    expect(methods()).toEqual(['pfs_v2.API/ListFile']);
    const failing = createFakeApiClient({});
    await expect(
      prefetchFolderOrFile(queryClient, failing, { ...ref, path: 'missing.txt' }),
    ).resolves.toBeUndefined();
  });
});
