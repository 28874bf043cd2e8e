import { describe, expect, it } from 'vitest';

import { authorizationEndpointPath } from './oidc-client.ts';

describe('authorizationEndpointPath', () => {
  const cases: [issuer: string, endpoint: string, path: string][] = [
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/auth', '/auth'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000/auth', '/auth'],
    ['https://dex.example.com/dex', 'https://dex.example.com/dex/auth', '/auth'],
    [
      'https://kc.example.com/realms/ivory',
      'https://kc.example.com/realms/ivory/protocol/openid-connect/auth',
      '/protocol/openid-connect/auth',
    ],
    ['https://tenant.auth0.com/', 'https://tenant.auth0.com/authorize', '/authorize'],
    // Not under the issuer base: the browser cannot build it by concatenation, so it stays whole.
    [
      'https://idp.example.com/a',
      'https://login.example.com/auth',
      'https://login.example.com/auth',
    ],
    [
      'https://idp.example.com/a',
      'https://idp.example.com/ab/auth',
      'https://idp.example.com/ab/auth',
    ],
  ];
  it.each(cases)('%s + %s → %s', (issuer, endpoint, path) => {
    expect(authorizationEndpointPath(issuer, endpoint)).toBe(path);
  });
});
