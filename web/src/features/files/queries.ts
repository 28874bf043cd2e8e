import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { inspectFile, listFilesPage, type ApiClient } from '@ivory/api';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../data/query-keys.ts';

/**
 * Entries of a folder's first page: a screenful and then some, so the first rows come as soon as
 * possible (a page of 1,000 is about 400 kB of JSON to write, send and read).
 */
export const FIRST_FILE_PAGE_SIZE = 100;
/** Entries of each later page, loaded while the user scrolls towards the end of what is loaded. */
export const FILE_PAGE_SIZE = 1000;

export interface FolderRef {
  project: string;
  repo: string;
  commitId: string;
  /** Absolute folder path, '/' for the root. */
  path: string;
}

// The query options of the file browser's first requests, shared by its hooks and the commit
// route's prefetch (prefetch-folder-or-file.ts): a prefetched answer is used, never fetched again.

/** A folder's entries, page by page with ListFile's pagination marker. */
export function folderEntriesQuery(
  client: ApiClient,
  { project, repo, commitId, path }: FolderRef,
) {
  return infiniteQueryOptions({
    queryKey: queryKeys.files(project, repo, commitId, path),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      listFilesPage(
        client,
        {
          project,
          repo,
          commitId,
          path,
          marker: pageParam,
          number: pageParam === null ? FIRST_FILE_PAGE_SIZE : FILE_PAGE_SIZE,
        },
        signal,
      ),
    getNextPageParam: (lastPage) => lastPage.nextMarker,
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** Whether a path names a file or a folder (InspectFile). */
export function fileInfoQuery(
  client: ApiClient,
  ref: { project: string; repo: string; commitId: string; path: string },
) {
  const { project, repo, commitId, path } = ref;
  return queryOptions({
    queryKey: queryKeys.fileInfo(project, repo, commitId, path),
    queryFn: ({ signal }) => inspectFile(client, { project, repo, commitId, path }, signal),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}
