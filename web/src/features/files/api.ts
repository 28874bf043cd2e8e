import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { fetchText, inspectFile, listFilesPage } from '@ivory/api';
import { useApi } from '../../app/api-context.tsx';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../app/query-keys.ts';

export const FILE_PAGE_SIZE = 1000;

export interface FolderRef {
  project: string;
  repo: string;
  commitId: string;
  /** Absolute folder path, '/' for the root. */
  path: string;
}

/** A folder's entries, fetched page by page with ListFile's pagination marker. */
export function useFolderEntries({ project, repo, commitId, path }: FolderRef) {
  const client = useApi();
  return useInfiniteQuery({
    queryKey: queryKeys.files(project, repo, commitId, path),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      listFilesPage(
        client,
        { project, repo, commitId, path, marker: pageParam, number: FILE_PAGE_SIZE },
        signal,
      ),
    getNextPageParam: (lastPage) => lastPage.nextMarker,
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** Whether a route path names a file or a folder; skipped for the root. */
export function useFileInfo(project: string, repo: string, commitId: string, path: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.fileInfo(project, repo, commitId, path),
    queryFn: ({ signal }) => inspectFile(client, { project, repo, commitId, path }, signal),
    enabled: path !== '/',
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** A small text file's contents through the server's `/files` URL. */
export function useFileText(url: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.fileText(url),
    queryFn: ({ signal }) => fetchText(url, { signal }),
    enabled,
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}
