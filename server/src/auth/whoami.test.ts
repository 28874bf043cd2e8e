import { describe, expect, it } from 'vitest';

import { identityOfIdToken, identityRules } from './identity.ts';
import { whoAmIFromIdentity } from './whoami.ts';

describe('whoAmIFromIdentity', () => {
  const base = { iss: 'https://idp.example.com', sub: 'user-1', exp: 1_767_225_600 };
  const rules = identityRules({});

  it('names the user by email and gives the expiry in RFC 3339', () => {
    expect(
      whoAmIFromIdentity(identityOfIdToken({ ...base, email: 'a@example.com' }, rules)),
    ).toEqual({
      username: 'a@example.com',
      expiration: '2026-01-01T00:00:00Z',
    });
  });

  it('falls back to the subject without an email', () => {
    expect(whoAmIFromIdentity(identityOfIdToken(base, rules)).username).toBe('user-1');
    expect(whoAmIFromIdentity(identityOfIdToken({ ...base, email: '' }, rules)).username).toBe(
      'user-1',
    );
  });
});
