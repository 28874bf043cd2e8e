import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileInfo } from '@ivory/api';
import { createFakeApiClient } from '../../test/fake-api-client.ts';
import { renderApp } from '../../test/render.tsx';
import { testIds } from '../../test-ids.ts';

const TOTAL_FILES = 100_000;
const commit = {
  repo: { name: 'images', type: 'user', project: { name: 'default' } },
  id: 'c1',
  branch: null,
};

function fileInfo(index: number): FileInfo {
  return {
    file: { commit, path: `/f${String(index).padStart(6, '0')}.txt`, datum: '' },
    fileType: 'FILE',
    committed: null,
    sizeBytes: '12',
    hash: '',
  };
}

/** A folder of 100,000 files served in ListFile pages by marker. */
const client = createFakeApiClient({
  'pfs_v2.API/InspectCommit': () => ({
    commit: { ...commit, branch: { repo: commit.repo, name: 'master' } },
    details: null,
  }),
  'pfs_v2.API/ListBranch': () => [{ branch: { repo: commit.repo, name: 'master' }, head: commit }],
  'pfs_v2.API/ListCommit': () => [
    {
      commit,
      description: 'first',
      started: null,
      finished: null,
      details: null,
      parentCommit: null,
    },
  ],
  'pfs_v2.API/InspectFile': (body) =>
    fileInfo(Number((body as { file: { path: string } }).file.path.slice(2, 8))),
  'pfs_v2.API/ListFile': (body) => {
    const request = body as { paginationMarker: { path: string } | null; number: string };
    const start = request.paginationMarker
      ? Number(request.paginationMarker.path.slice(2, 8)) + 1
      : 0;
    const end = Math.min(TOTAL_FILES, start + Number(request.number));
    return Array.from({ length: end - start }, (_, i) => fileInfo(start + i));
  },
});

describe('file browser', () => {
  const height = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight');
  beforeAll(() => {
    Object.defineProperty(Element.prototype, 'clientHeight', {
      configurable: true,
      get: () => 520,
    });
  });
  afterAll(() => {
    if (height) Object.defineProperty(Element.prototype, 'clientHeight', height);
  });

  it('renders only a window of a long folder, with download links and breadcrumbs', async () => {
    renderApp('/project/default/repos/images/commit/c1', client);
    const list = await screen.findByTestId(testIds.fileList, {}, { timeout: 15_000 });
    const rows = await within(list).findAllByTestId(testIds.fileRow);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(100);
    expect(rows[0]).toHaveTextContent('f000000.txt');
    expect(within(rows[0] as HTMLElement).getByTestId(testIds.fileDownload)).toHaveAttribute(
      'href',
      '/files/default/images/c1/f000000.txt?download=1',
    );
    expect(screen.getAllByTestId(testIds.breadcrumb)[0]).toHaveTextContent('root');
    // A short first page, then one page of 1,000 ahead of the scroll, and no more (each asks
    // for one entry more, to learn whether another page follows).
    await waitFor(() => expect(list).toHaveAttribute('data-count', '1100'));
    const pages = client.calls
      .filter((call) => call.method === 'pfs_v2.API/ListFile')
      .map((call) => call.body as { number: string; paginationMarker: { path: string } | null });
    expect(pages.map((page) => [page.number, page.paginationMarker?.path ?? null])).toEqual([
      ['101', null],
      ['1001', '/f000099.txt'],
    ]);
  }, 30_000);

  it('opens a preview when a file is selected', async () => {
    const { user, router } = renderApp('/project/default/repos/images/commit/c1', client);
    const list = await screen.findByTestId(testIds.fileList, {}, { timeout: 15_000 });
    const rows = await within(list).findAllByTestId(testIds.fileRow);
    const fetchFile = vi.fn(async () => new Response('hello from f000001'));
    vi.stubGlobal('fetch', fetchFile);
    await user.click(rows[1] as HTMLElement);
    expect(router.state.location.pathname).toBe(
      '/project/default/repos/images/commit/c1/f000001.txt',
    );
    const preview = await screen.findByTestId(testIds.filePreview);
    expect(await within(preview).findByText('hello from f000001')).toBeInTheDocument();
    expect(fetchFile).toHaveBeenCalledWith(
      '/files/default/images/c1/f000001.txt',
      expect.anything(),
    );
    vi.unstubAllGlobals();
  }, 30_000);
});
