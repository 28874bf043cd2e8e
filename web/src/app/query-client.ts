import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '@ivory/api';
import { handleQueryError } from '../features/errors/query-errors.ts';

export const QUERY_RETRIES = 3;
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;
export const MAX_RETRY_DELAY_MS = 30_000;

/** Delay before retry `attempt` (0-based): min(1000 * 2^attempt, 30000) ms. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

/**
 * Answers that asking again cannot change — invalid argument, not found, already exists,
 * permission denied, failed precondition, out of range, unimplemented, internal (a forced
 * sign-out), unauthenticated — are shown at once; only the others (unavailable, deadline,
 * exhausted, aborted, unknown, or no answer at all) are retried.
 */
const DEFINITE_CODES = new Set([3, 5, 6, 7, 9, 11, 12, 13, 16]);

/** Retry a failed query (up to QUERY_RETRIES times) unless its answer is definite. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && DEFINITE_CODES.has(error.code)) return false;
  return failureCount < QUERY_RETRIES;
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
        retry: shouldRetry,
        retryDelay,
        refetchOnWindowFocus: false,
        gcTime: QUERY_GC_TIME_MS,
      },
    },
  });
}
