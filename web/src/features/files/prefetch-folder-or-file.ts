import type { QueryClient } from '@tanstack/react-query';
import { fileUrl, type ApiClient } from '@ivory/api';
import { prefetchPreview, preloadPreviewOf } from '../preview/prefetch-preview.ts';
import { filePathOf, folderPath, parentFolder } from './file-path.ts';
import { fileInfoQuery, folderEntriesQuery } from './queries.ts';

/**
 * Starts what the file browser (FileBrowser) shows first at a route path, before it renders:
 * for a folder path, the folder's first page; for another path, its InspectFile (and meanwhile
 * the renderer code its name calls for, and the first bytes of a CSV or gz file), then its
 * folder's first page and, for a file, its preview. The browser's own queries, loaded only when
 * not cached yet: nothing is fetched twice. Never fails: the browser shows any error itself.
 */
export async function prefetchFolderOrFile(
  queryClient: QueryClient,
  client: ApiClient,
  ref: { project: string; repo: string; commitId: string; path: string },
): Promise<void> {
  const { path, ...commit } = ref;
  const listFolder = (folder: string) =>
    queryClient.ensureInfiniteQueryData(folderEntriesQuery(client, { ...commit, path: folder }));
  const target = filePathOf(path);
  try {
    if (path.endsWith('/') || target === '/') {
      await listFolder(folderPath(path));
      return;
    }
    const urlOf = (file: string, download: boolean) =>
      fileUrl({ ...commit, path: file, download }, client.baseUrl);
    preloadPreviewOf(queryClient, target, urlOf(target, false));
    const info = await queryClient.ensureQueryData(
      fileInfoQuery(client, { ...commit, path: target }),
    );
    if (info?.fileType !== 'FILE') {
      await listFolder(folderPath(path));
      return;
    }
    await Promise.all([
      listFolder(parentFolder(target)),
      prefetchPreview(queryClient, info, {
        url: urlOf(info.file.path, false),
        downloadUrl: urlOf(info.file.path, true),
      }),
    ]);
  } catch {
    // FileBrowser asks again and shows the error.
  }
}
