import type { AuthConfig } from './config.ts';
import { TokenVerificationError, type IdTokenClaims } from './token-verifier.ts';

/**
 * Who a verified token stands for. A principal is made here and nowhere else, from facts the
 * server verified: an id token's signed subject and (verified) email — never a claim a token
 * makes about its own principal — or one of the server's own robot tokens.
 */
export interface VerifiedIdentity {
  /** `user:<email or other configured claim>`, `user:<sub>`, or `robot:<name>`. */
  principal: string;
  /** When the token expires (RFC 3339), '' when it does not. */
  expiration: string;
  /** The id token's claims (a robot token's: sub, iss `ivory`, exp). */
  claims: IdTokenClaims;
  /** Whether the token is a robot token the server issued (auth_v2 GetRobotToken). */
  robot: boolean;
}

/** Which claims name a user, as configured (pachd's OIDC settings: require_email_verified). */
export interface IdentityRules {
  /** The claim naming the user; `email` by default. */
  userClaim: string;
  /** The claim saying the email is verified; `email_verified` by default. */
  emailVerifiedClaim: string;
  /** Refuse an email without the verified claim (not only one whose claim is false). */
  requireEmailVerified: boolean;
}

export function identityRules(config: AuthConfig): IdentityRules {
  return {
    userClaim: config.userClaim || 'email',
    emailVerifiedClaim: config.emailVerifiedClaim || 'email_verified',
    requireEmailVerified: config.requireEmailVerified === 'true',
  };
}

export const expirationOf = (exp: number): string =>
  exp ? new Date(exp * 1000).toISOString().replace('.000Z', 'Z') : '';

/** A claim value usable in a principal: a non-empty string without spaces or control characters. */
const usableName = (value: string): boolean =>
  value !== '' && ![...value].some((char) => /\s/u.test(char) || /\p{Cc}/u.test(char));

const refused = (message: string) => new TokenVerificationError('claims', message);

/**
 * The identity an id token (already verified: signature, issuer, audience, expiry) stands for.
 * The user is the configured claim (lower-cased when it is an email); an email counts only when
 * the token does not say it is unverified (`email_verified` false: refused, whatever else the
 * token says), and with `requireEmailVerified` only when it says it is verified. Without the
 * claim, the token's subject. Throws TokenVerificationError('claims').
 */
export function identityOfIdToken(claims: IdTokenClaims, rules: IdentityRules): VerifiedIdentity {
  const expiration = expirationOf(claims.exp);
  const value = claims[rules.userClaim];
  if (value === undefined || value === null || value === '') {
    if (typeof claims.sub !== 'string' || !usableName(claims.sub))
      throw refused('token claim "sub" is not a usable user name');
    return { principal: `user:${claims.sub}`, expiration, claims, robot: false };
  }
  if (typeof value !== 'string' || !usableName(value))
    throw refused(`token claim "${rules.userClaim}" is not a usable user name`);
  const isEmail = rules.userClaim === 'email';
  if (isEmail) {
    const verified = claims[rules.emailVerifiedClaim];
    const saysVerified = verified === true || verified === 'true';
    if (verified !== undefined && !saysVerified)
      throw refused(
        `token claim "${rules.emailVerifiedClaim}" is not true: the email ${value} is not verified`,
      );
    if (rules.requireEmailVerified && !saysVerified)
      throw refused(
        `token has no "${rules.emailVerifiedClaim}" claim and verified emails are required`,
      );
  }
  return {
    principal: `user:${isEmail ? value.toLowerCase() : value}`,
    expiration,
    claims,
    robot: false,
  };
}

/** The identity of one of the server's own robot tokens. */
export function robotIdentity(subject: string, expiresAt: number | null): VerifiedIdentity {
  const exp = expiresAt === null ? 0 : Math.floor(expiresAt / 1000);
  return {
    principal: subject,
    expiration: expirationOf(exp),
    claims: { sub: subject, iss: 'ivory', exp },
    robot: true,
  };
}
