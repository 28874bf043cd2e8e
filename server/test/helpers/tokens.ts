/**
 * Id tokens for tests with sign-in on, signed with the test identity provider's own key (what
 * the console would get from it after a sign-in), for any user:
 *   const token = await tokenFor(idp, 'alice');   // sub alice, email alice@example.com
 *   await signedToken(idp, { sub: 'mallory', claims: { email: 'mallory@example.com' } });
 */
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import type { RunningOidcProvider } from './oidc-provider.ts';

export interface SignedTokenOptions {
  sub: string;
  /** Claims besides iss/aud/sub/iat/exp (email, name…). */
  claims?: JWTPayload;
  /** Defaults: the provider's issuer and client id. */
  issuer?: string;
  audience?: string;
  /** Seconds since the epoch; defaults: now, and one hour after now. */
  issuedAt?: number;
  expiresAt?: number;
  alg?: string;
}

/** A token signed with the provider's signing key (its kid in the header). */
export async function signedToken(
  idp: RunningOidcProvider,
  options: SignedTokenOptions,
): Promise<string> {
  const alg = options.alg ?? 'RS256';
  const key = await importJWK(idp.signingKey, alg);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(options.claims ?? {})
    .setProtectedHeader({ alg, kid: idp.signingKey.kid })
    .setIssuer(options.issuer ?? idp.issuer)
    .setAudience(options.audience ?? idp.clientId)
    .setSubject(options.sub)
    .setIssuedAt(options.issuedAt ?? now)
    .setExpirationTime(options.expiresAt ?? now + 3600)
    .sign(key);
}

/** A signed-in user's token: sub `login`, email `<login>@example.com`, expiring in `expiresIn` s. */
export function tokenFor(
  idp: RunningOidcProvider,
  login: string,
  expiresIn = 3600,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signedToken(idp, {
    sub: login,
    claims: { email: `${login}@example.com`, name: login },
    // Issued a minute before it expires at the latest (expiresIn < 0: an expired token).
    issuedAt: now + Math.min(0, expiresIn) - 60,
    expiresAt: now + expiresIn,
  });
}
