import { ApiError } from '@ivory/api';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, retryDelay, shouldRetry } from './query-client.ts';

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
    expect(defaults).toMatchObject({ refetchOnWindowFocus: false, gcTime: 300_000 });
    expect(defaults?.retry).toBe(shouldRetry);
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

describe('shouldRetry', () => {
  it('retries an unavailable server or a lost connection 3 times', () => {
    for (const error of [new ApiError(14, 'unavailable'), new TypeError('Failed to fetch')]) {
      expect([0, 1, 2, 3].map((n) => shouldRetry(n, error))).toEqual([true, true, true, false]);
    }
  });
  it('shows a definite answer at once: not found, invalid, denied, unauthenticated', () => {
    for (const code of [3, 5, 7, 16]) expect(shouldRetry(0, new ApiError(code, 'no'))).toBe(false);
  });
});
