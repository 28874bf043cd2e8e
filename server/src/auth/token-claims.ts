import { ApiError, Code } from '../errors.ts';
import type { Auth } from './auth.ts';
import { identityOfIdToken, robotIdentity, type VerifiedIdentity } from './identity.ts';
import { TokenVerificationError } from './token-verifier.ts';

/**
 * The server's own tokens (auth_v2 GetRobotToken): the subject of a live one, else null. A
 * token found here is not sent to the identity provider's verifier.
 */
export type RobotTokenLookup = (
  token: string,
) => { subject: string; expiresAt: number | null } | null;

/**
 * Who a caller's token stands for, whatever carried it (the HTTP guard's headers, gRPC's
 * `authn-token` metadata): a robot token of the server's own, else an id token checked by the
 * identity provider's verifier and read by the configured claims (identity.ts). A robot
 * principal comes only from a robot token. Throws what the verifier throws (see
 * verificationError), and TokenVerificationError('claims') for a token naming no usable user.
 */
export async function identityOfToken(
  auth: Auth,
  token: string,
  robotToken?: RobotTokenLookup,
): Promise<VerifiedIdentity> {
  const robot = token.includes('.') ? null : (robotToken?.(token) ?? null);
  if (robot) return robotIdentity(robot.subject, robot.expiresAt);
  return identityOfIdToken(await auth.verify(token), auth.rules);
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
