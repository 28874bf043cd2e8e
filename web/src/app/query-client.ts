import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { handleQueryError } from '../features/errors/query-errors.ts';

export const QUERY_RETRIES = 3;
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;
export const MAX_RETRY_DELAY_MS = 30_000;

/** Delay before retry `attempt` (0-based): min(1000 * 2^attempt, 30000) ms. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

/** Errors of every query and mutation: forced sign-out on 16/13, else error logging. */
export function createQueryClient(
  onError: (error: unknown) => void = handleQueryError,
): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => onError(error) }),
    mutationCache: new MutationCache({ onError: (error) => onError(error) }),
    defaultOptions: {
      queries: {
        retry: QUERY_RETRIES,
        retryDelay,
        refetchOnWindowFocus: false,
        gcTime: QUERY_GC_TIME_MS,
      },
    },
  });
}
