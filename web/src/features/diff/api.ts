import { useQuery } from '@tanstack/react-query';
import { diffFile, fileUrl, type ApiClient } from '@ivory/api';
import { useApi } from '../../data/api-context.tsx';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../data/query-keys.ts';
import { fetchWholeText } from '../preview/load.ts';
import { changedFiles } from './build-diff.ts';

/**
 * The files that differ between a commit and another (its parent when `otherId` is '').
 * DiffFile walks the whole tree from the root.
 */
export function useCommitDiff(project: string, repo: string, commitId: string, otherId: string) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.diff(project, repo, commitId, otherId || 'parent'),
    queryFn: async ({ signal }) =>
      changedFiles(
        await diffFile(
          client,
          {
            newFile: { project, repo, commitId, path: '/' },
            oldFile: otherId ? { project, repo, commitId: otherId, path: '/' } : undefined,
          },
          signal,
        ),
      ),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

async function textAt(
  client: ApiClient,
  ref: { project: string; repo: string; commitId: string; path: string } | null,
  signal?: AbortSignal,
): Promise<string> {
  if (!ref) return '';
  return fetchWholeText(fileUrl(ref, client.baseUrl), signal);
}

/** Both sides' text of one changed file ('' for the missing side). */
export function useTextPair(
  oldRef: { project: string; repo: string; commitId: string; path: string } | null,
  newRef: { project: string; repo: string; commitId: string; path: string } | null,
) {
  const client = useApi();
  return useQuery({
    queryKey: queryKeys.textPair(oldRef ? fileUrl(oldRef) : '', newRef ? fileUrl(newRef) : ''),
    queryFn: async ({ signal }) => {
      const [before, after] = await Promise.all([
        textAt(client, oldRef, signal),
        textAt(client, newRef, signal),
      ]);
      return { before, after };
    },
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}
