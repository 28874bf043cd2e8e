import { ApiError } from '@ivory/api';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, retryDelay } from './query-client.ts';

describe('retryDelay', () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16000],
    [5, 30000],
    [10, 30000],
  ])('attempt %i waits %i ms', (attempt, expected) => {
    expect(retryDelay(attempt)).toBe(expected);
  });
});

describe('createQueryClient', () => {
  it('retries 3 times, never refetches on focus and keeps unused data 5 minutes', () => {
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults).toMatchObject({ retry: 3, refetchOnWindowFocus: false, gcTime: 300_000 });
    expect(defaults?.retryDelay).toBe(retryDelay);
  });
});

describe('createQueryClient error hooks', () => {
  it('query and mutation errors reach the handler', async () => {
    const onError = vi.fn();
    const client = createQueryClient(onError);
    const unauthenticated = new ApiError(16, 'token expired');
    await client
      .fetchQuery({ queryKey: ['x'], queryFn: () => Promise.reject(unauthenticated), retry: false })
      .catch(() => {});
    expect(onError).toHaveBeenCalledWith(unauthenticated);

    const internal = new ApiError(13, 'internal');
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(internal) })
      .execute(undefined)
      .catch(() => {});
    expect(onError).toHaveBeenCalledWith(internal);
  });
});
