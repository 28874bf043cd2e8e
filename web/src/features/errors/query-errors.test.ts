import { ApiError } from '@ivory/api';
import { describe, expect, it, vi } from 'vitest';
import { errorViewOf } from './error-types.ts';
import { handleQueryError } from './query-errors.ts';

function actions() {
  return { signOut: vi.fn(), report: vi.fn() };
}

describe('handleQueryError', () => {
  it.each([16, 13])('code %i forces a sign-out and is not reported', (code) => {
    const a = actions();
    handleQueryError(new ApiError(code, 'x'), a);
    expect(a.signOut).toHaveBeenCalledTimes(1);
    expect(a.report).not.toHaveBeenCalled();
  });

  it.each([2, 3, 5, 9, 14])('code %i does not sign out and is reported', (code) => {
    const a = actions();
    handleQueryError(new ApiError(code, 'x'), a);
    expect(a.signOut).not.toHaveBeenCalled();
    expect(a.report).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['code 12', new ApiError(12, 'unimplemented')],
    ['no healthy upstream', new Error('no healthy upstream')],
    ['upstream connect error', new Error('upstream connect error or disconnect/reset')],
    ['permission denied (a null result)', new ApiError(7, 'denied')],
  ])('%s: neither sign-out nor logging', (_name, error) => {
    const a = actions();
    handleQueryError(error, a);
    expect(a.signOut).not.toHaveBeenCalled();
    expect(a.report).not.toHaveBeenCalled();
  });
});

describe('error catalogue on the error screen', () => {
  it.each([
    [
      'a message matching "authentication error" (any case)',
      new Error('Authentication Error: bad'),
      'UNAUTHENTICATED',
    ],
    ['code 13', new ApiError(13, 'internal'), 'UNAUTHENTICATED'],
    [
      'a message containing "not found"',
      new Error('branch master not found'),
      'RESOURCE_NOT_FOUND',
    ],
  ])('%s', (_name, error, type) => {
    expect(errorViewOf(error).type).toBe(type);
  });
});
