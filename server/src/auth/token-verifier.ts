import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';

/** The claims of a verified id token that the server uses. */
export interface IdTokenClaims {
  sub: string;
  iss: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  email?: string;
  name?: string;
  [claim: string]: unknown;
}

/**
 * Why a token was refused. 'unavailable' means the issuer's keys could not be fetched: the token
 * may be fine, the server just cannot tell right now.
 */
export type TokenRejection =
  'missing' | 'malformed' | 'algorithm' | 'signature' | 'expired' | 'claims' | 'unavailable';

export class TokenVerificationError extends Error {
  constructor(
    readonly reason: TokenRejection,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TokenVerificationError';
  }
}

/**
 * Asymmetric algorithms only: never 'none', never HS* (a public key must not double as an HMAC
 * secret).
 */
export const ALLOWED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

export interface TokenVerifierOptions {
  /** Expected `iss`, exactly as the issuer's discovery document spells it. */
  issuer: string;
  /** Accepted `aud` values (a token passes if its audience contains any of them). */
  audiences: string[];
  /** The issuer's JWKS URI (from discovery) or, in tests, a key resolver. */
  keys: URL | JWTVerifyGetKey;
  /** Algorithms the issuer says it signs id tokens with; intersected with ALLOWED_ALGORITHMS. */
  issuerAlgorithms?: string[];
}

export interface TokenVerifier {
  verify(token: string): Promise<IdTokenClaims>;
}

/** A token issued more than the allowed skew in the future is refused (claims). */
function assertIssuedInThePast(iat: unknown): void {
  if (iat === undefined) return;
  const now = Math.floor(Date.now() / 1000);
  if (typeof iat !== 'number' || !Number.isFinite(iat)) {
    throw new TokenVerificationError('claims', 'token claim "iat" is not a number');
  }
  if (iat > now + MAX_CLOCK_SKEW_SECONDS) {
    throw new TokenVerificationError(
      'claims',
      `token claim "iat" is ${iat - now} s in the future (more than the ${MAX_CLOCK_SKEW_SECONDS} s allowed clock skew)`,
    );
  }
}

function intersectAlgorithms(issuerAlgorithms: string[] | undefined): string[] {
  const allowed: readonly string[] = ALLOWED_ALGORITHMS;
  if (!issuerAlgorithms?.length) return [...allowed];
  const both = issuerAlgorithms.filter((alg) => allowed.includes(alg));
  return both.length ? both : [...allowed];
}

function rejection(error: unknown): TokenVerificationError {
  const wrap = (reason: TokenRejection, message: string) =>
    new TokenVerificationError(reason, message, { cause: error });
  if (error instanceof errors.JWTExpired) return wrap('expired', 'token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return wrap('claims', `token claim "${error.claim}" is not acceptable: ${error.message}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return wrap('algorithm', 'token signing algorithm is not allowed');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return wrap('signature', 'token signature verification failed');
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return wrap('signature', 'token is not signed by a key of the issuer');
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKInvalid
  ) {
    return wrap('malformed', 'token is malformed');
  }
  // JWKS timeout, a non-200 JWKS answer, a network failure: the issuer is not reachable.
  return wrap('unavailable', 'could not fetch the issuer signing keys');
}

/** How far in the future a token's `iat` may be (clock skew between issuer and server). */
export const MAX_CLOCK_SKEW_SECONDS = 60;

/** Verifies id tokens with jose: signature against the issuer's keys, iss, aud, exp, alg. */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const keys =
    options.keys instanceof URL
      ? createRemoteJWKSet(options.keys, { timeoutDuration: 5_000, cooldownDuration: 30_000 })
      : options.keys;
  const algorithms = intersectAlgorithms(options.issuerAlgorithms);
  const audience = [...new Set(options.audiences.filter(Boolean))];

  return {
    async verify(token) {
      if (!token) throw new TokenVerificationError('missing', 'no token');
      if (token.split('.').length !== 3) {
        throw new TokenVerificationError('malformed', 'token is malformed');
      }
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience,
          algorithms,
          requiredClaims: ['sub', 'exp'],
        });
        assertIssuedInThePast(payload.iat);
        return payload as IdTokenClaims;
      } catch (error) {
        if (error instanceof TokenVerificationError) throw error;
        throw rejection(error);
      }
    },
  };
}
