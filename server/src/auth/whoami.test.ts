import { describe, expect, it } from 'vitest';

import { whoAmIFromClaims } from './whoami.ts';

describe('whoAmIFromClaims', () => {
  const base = { iss: 'https://idp.example.com', sub: 'user-1', exp: 1_767_225_600 };

  it('names the user by email and gives the expiry in RFC 3339', () => {
    expect(whoAmIFromClaims({ ...base, email: 'a@example.com' })).toEqual({
      username: 'a@example.com',
      expiration: '2026-01-01T00:00:00Z',
    });
  });

  it('falls back to the subject without an email', () => {
    expect(whoAmIFromClaims(base).username).toBe('user-1');
    expect(whoAmIFromClaims({ ...base, email: '' }).username).toBe('user-1');
  });
});
