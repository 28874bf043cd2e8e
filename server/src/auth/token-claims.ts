import { ApiError, Code } from '../errors.ts';
import type { Auth } from './auth.ts';
import { TokenVerificationError, type IdTokenClaims } from './token-verifier.ts';

/**
 * The server's own tokens (auth_v2 GetRobotToken): the subject of a live one, else null. A
 * token found here is not sent to the identity provider's verifier.
 */
export type RobotTokenLookup = (
  token: string,
) => { subject: string; expiresAt: number | null } | null;

/**
 * The claims of a caller's token, whatever carried it (the HTTP guard's headers, gRPC's
 * `authn-token` metadata): a robot token of the server's own, else an id token checked by the
 * identity provider's verifier. Throws what the verifier throws (see verificationError).
 */
export async function claimsOfToken(
  auth: Auth,
  token: string,
  robotToken?: RobotTokenLookup,
): Promise<IdTokenClaims> {
  const robot = token.includes('.') ? null : (robotToken?.(token) ?? null);
  if (robot) {
    return {
      sub: robot.subject,
      iss: 'ivory',
      exp: robot.expiresAt === null ? 0 : Math.floor(robot.expiresAt / 1000),
      principal: robot.subject,
    };
  }
  return auth.verify(token);
}

export function unauthenticated(reason: string): ApiError {
  return new ApiError(Code.UNAUTHENTICATED, `authentication error: ${reason}`);
}

/**
 * The answer to a failed verification: 14 when the issuer cannot be reached (the token may be
 * fine: not a sign-out), 16 for a refused token; null for an unexpected failure (answer 13).
 */
export function verificationError(error: unknown): ApiError | null {
  if (error instanceof TokenVerificationError && error.reason === 'unavailable')
    return new ApiError(Code.UNAVAILABLE, error.message);
  if (error instanceof TokenVerificationError) return unauthenticated(error.message);
  if (error instanceof ApiError) return error;
  return null;
}
