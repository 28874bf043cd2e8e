import { describe, expect, it } from 'vitest';

import { identityOfIdToken, identityRules } from './identity.ts';

const base = { iss: 'https://idp.example.com', sub: 'user-1', exp: 1_767_225_600 };

describe('identityOfIdToken', () => {
  const rules = identityRules({});

  it('never takes a principal from the token itself', () => {
    const identity = identityOfIdToken(
      { ...base, email: 'Mallory@Example.com', principal: 'robot:ci' },
      rules,
    );
    expect(identity.principal).toBe('user:mallory@example.com');
    expect(identity.robot).toBe(false);
    expect(identityOfIdToken({ ...base, principal: 'robot:ci' }, rules).principal).toBe(
      'user:user-1',
    );
  });

  it('refuses an email the token says is not verified, as boolean or string', () => {
    for (const verified of [false, 'false', 0, null])
      expect(() =>
        identityOfIdToken({ ...base, email: 'carol@example.com', email_verified: verified }, rules),
      ).toThrow(/not verified/);
    expect(
      identityOfIdToken({ ...base, email: 'carol@example.com', email_verified: 'true' }, rules)
        .principal,
    ).toBe('user:carol@example.com');
  });

  it('requires the verified claim when configured', () => {
    const strict = identityRules({ requireEmailVerified: 'true' });
    expect(() => identityOfIdToken({ ...base, email: 'carol@example.com' }, strict)).toThrow(
      /verified emails are required/,
    );
    expect(
      identityOfIdToken({ ...base, email: 'carol@example.com', email_verified: true }, strict)
        .principal,
    ).toBe('user:carol@example.com');
  });

  it('reads the configured claims', () => {
    const custom = identityRules({ userClaim: 'preferred_username', emailVerifiedClaim: 'ev' });
    const claims = { ...base, preferred_username: 'Carol', email: 'x@example.com', ev: false };
    // Not an email: kept as given, and the email's claims do not matter.
    expect(identityOfIdToken(claims, custom).principal).toBe('user:Carol');
    const verifiedBy = identityRules({ emailVerifiedClaim: 'ev' });
    expect(() => identityOfIdToken(claims, verifiedBy)).toThrow(/"ev" is not true/);
  });

  it('refuses a user claim that is not a plain name', () => {
    for (const email of ['a b@example.com', 'a\n@example.com', 42, { x: 1 }])
      expect(() => identityOfIdToken({ ...base, email } as never, rules)).toThrow(
        /not a usable user name/,
      );
  });
});
