import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { COMMIT_CONTENT_STALE_TIME_MS, queryKeys } from '../../../data/query-keys.ts';
import { fetchWholeText } from '../load.ts';
import type { RendererProps } from './types.ts';

function textQuery(url: string) {
  return queryOptions({
    queryKey: queryKeys.fileText(url),
    queryFn: ({ signal }) => fetchWholeText(url, signal),
    staleTime: COMMIT_CONTENT_STALE_TIME_MS,
  });
}

/** A small file's text (the registry's size limits were checked before rendering). */
export function useText(url: string) {
  return useQuery(textQuery(url));
}

/** The `prefetch` of the renderers that show a file's text. */
export function prefetchText(queryClient: QueryClient, { url }: RendererProps): Promise<void> {
  return queryClient.prefetchQuery(textQuery(url));
}
