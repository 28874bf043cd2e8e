import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';

import { bearerToken, cookieValue, DEFAULT_GUARDED_PREFIXES, pathIsGuarded } from './guard.ts';

const withHeaders = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('pathIsGuarded (default prefixes)', () => {
  it.each([
    ['/api/pfs_v2.API/CreateRepo', true],
    ['/api', true],
    ['/upload', true],
    ['/upload/start', true],
    ['/upload/finish', true],
    ['/files/default/images/master/a.png', true],
    ['/uploads', false],
    ['/apis/x', false],
    ['/auth/config', false],
    ['/', false],
    ['/index.html', false],
  ])('%s → %s', (path, guarded) => {
    expect(pathIsGuarded(path, DEFAULT_GUARDED_PREFIXES)).toBe(guarded);
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Bearer ', ''],
    ['Basic abc', ''],
    ['Bearer a b', ''],
  ])('%j → %j', (header, token) => {
    expect(bearerToken(withHeaders({ authorization: header }))).toBe(token);
  });
  it('is empty without the header', () => {
    expect(bearerToken(withHeaders({}))).toBe('');
  });
});

describe('cookieValue', () => {
  it('finds the named cookie and decodes it', () => {
    const request = withHeaders({ cookie: 'a=1; auth-token=x%2Ey; other-auth-token=z' });
    expect(cookieValue(request, 'auth-token')).toBe('x.y');
    expect(cookieValue(request, 'missing')).toBe('');
    expect(cookieValue(withHeaders({}), 'auth-token')).toBe('');
  });
});
