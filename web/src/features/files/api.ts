import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteFilesInNewCommit, globFile } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../data/query-keys.ts';
import { fileHistoryPage } from './history.ts';
import { fileInfoQuery, folderEntriesQuery, type FolderRef } from './queries.ts';

/** Glob results shown at most (the rest are counted). */
export const GLOB_MAX_RESULTS = 500;

/** A folder's entries, fetched page by page with ListFile's pagination marker. */
export function useFolderEntries(folder: FolderRef) {
  const client = useApi();
  return useInfiniteQuery(folderEntriesQuery(client, folder));
}

/** Whether a route path names a file or a folder; skipped for the root. */
export function useFileInfo(project: string, repo: string, commitId: string, path: string) {
  const client = useApi();
  return useQuery({
    ...fileInfoQuery(client, { project, repo, commitId, path }),
    enabled: path !== '/',
  });
}

/** Files matching a glob pattern in a commit (GlobFile). */
export function useGlob(project: string, repo: string, commitId: string, pattern: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.glob(project, repo, commitId, pattern),
    queryFn: ({ signal }) => globFile(client, { project, repo, commitId, pattern }, signal),
    enabled: pattern !== '',
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** The commits that changed a file, walking back from `commitId` a page at a time. */
export function useFileHistory(project: string, repo: string, commitId: string, path: string) {
  const client = useApi();
  return useInfiniteQuery({
    queryKey: queryKeys.fileHistory(project, repo, commitId, path),
    initialPageParam: commitId,
    queryFn: ({ pageParam, signal }) =>
      fileHistoryPage(client, { project, repo, path, fromCommitId: pageParam }, signal),
    getNextPageParam: (lastPage) => lastPage.next,
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** Deletes paths in a new commit on a branch; resolves with the new commit's id. */
export function useDeleteFiles(project: string, repo: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { branch: string; paths: string[] }) =>
      deleteFilesInNewCommit(client, { project, repo, ...args }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.repo(project, repo) }),
  });
}
