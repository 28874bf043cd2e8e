import { useQuery } from '@tanstack/react-query';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../../app/query-keys.ts';
import { fetchWholeText } from '../load.ts';

/** A small file's text (the registry's size limits were checked before rendering). */
export function useText(url: string) {
  return useQuery({
    queryKey: queryKeys.fileText(url),
    queryFn: ({ signal }) => fetchWholeText(url, signal),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}
