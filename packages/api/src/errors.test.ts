import { describe, expect, it } from 'vitest';
import {
  ApiError,
  GRPC_CODE_NAMES,
  GrpcCode,
  classifyError,
  grpcCodeName,
  isAuthenticationFailure,
  isConnectivityError,
  isPermissionDenied,
  type ErrorClass,
} from './errors.ts';

describe('GrpcCode', () => {
  it('names the 17 codes from OK to UNAUTHENTICATED for display', () => {
    expect(GRPC_CODE_NAMES).toHaveLength(17);
    expect(GRPC_CODE_NAMES[0]).toBe('OK');
    expect(GRPC_CODE_NAMES[16]).toBe('UNAUTHENTICATED');
    expect(grpcCodeName(GrpcCode.NOT_FOUND)).toBe('NOT_FOUND');
  });
});

describe('ApiError.fromBody', () => {
  it('reads code, message and details', () => {
    const err = ApiError.fromBody({ code: 5, message: 'repo x not found', details: ['d'] }, 404);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      code: 5,
      message: 'repo x not found',
      details: ['d'],
      status: 404,
    });
  });
  it('falls back to the HTTP status for the code', () => {
    expect(ApiError.fromBody({ message: 'nope' }, 403).code).toBe(GrpcCode.PERMISSION_DENIED);
    expect(ApiError.fromBody('garbage').code).toBe(GrpcCode.UNKNOWN);
  });
});

const catalogue: Array<[string, unknown, ErrorClass]> = [
  ['code 16', new ApiError(16, 'token expired'), 'UNAUTHENTICATED'],
  ['code 13', new ApiError(13, 'internal'), 'UNAUTHENTICATED'],
  ['authentication error message', new Error('Authentication Error: bad token'), 'UNAUTHENTICATED'],
  ['code 5', new ApiError(5, 'missing'), 'RESOURCE_NOT_FOUND'],
  ['not found message', new Error('repo images not found'), 'RESOURCE_NOT_FOUND'],
  ['code 12', new ApiError(12, 'the auth service is not activated'), 'CONNECTIVITY'],
  ['no healthy upstream', new Error('no healthy upstream'), 'CONNECTIVITY'],
  ['upstream connect error', new Error('upstream connect error or disconnect'), 'CONNECTIVITY'],
  ['code 7', new ApiError(7, 'denied'), 'PERMISSION_DENIED'],
  ['anything else', new ApiError(2, 'boom'), 'GENERIC'],
  ['a non-error', 'oops', 'GENERIC'],
];

describe('classifyError', () => {
  it.each(catalogue)('%s → %s', (_name, err, expected) => {
    expect(classifyError(err)).toBe(expected);
  });
});

describe('catalogue predicates', () => {
  it('isPermissionDenied is code 7 only', () => {
    expect(isPermissionDenied(new ApiError(7, ''))).toBe(true);
    expect(isPermissionDenied(new ApiError(16, ''))).toBe(false);
  });
  it('isAuthenticationFailure is code 16 or 13', () => {
    expect(isAuthenticationFailure(new ApiError(16, ''))).toBe(true);
    expect(isAuthenticationFailure(new ApiError(13, ''))).toBe(true);
    expect(isAuthenticationFailure(new ApiError(7, ''))).toBe(false);
  });
  it('isConnectivityError is code 12 or an upstream message', () => {
    expect(isConnectivityError(new ApiError(12, ''))).toBe(true);
    expect(isConnectivityError(new Error('no healthy upstream'))).toBe(true);
    expect(isConnectivityError(new Error('upstream connect error'))).toBe(true);
    expect(isConnectivityError(new ApiError(14, 'unavailable'))).toBe(false);
  });
});
