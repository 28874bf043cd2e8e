import type { Metadata } from '@grpc/grpc-js';
import type { Auth } from '../auth/auth.ts';
import { identityOfToken, unauthenticated, verificationError } from '../auth/token-claims.ts';
import type { RobotTokenLookup } from '../auth/token-claims.ts';
import { ApiError, Code } from '../errors.ts';
import type { Caller } from '../platform/auth/index.ts';

/** The header pachd reads a caller's token from. */
export const TOKEN_METADATA = 'authn-token';

function metadataText(metadata: Metadata, key: string): string {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value.trim() : '';
}

/** The call's token: `authn-token` (as pachctl and the SDKs send it), else a Bearer token. */
export function metadataToken(metadata: Metadata): string {
  const token = metadataText(metadata, TOKEN_METADATA);
  if (token) return token;
  const match = /^Bearer[ \t]+(\S+)$/i.exec(metadataText(metadata, 'authorization'));
  return match?.[1] ?? '';
}

/**
 * Who a gRPC call runs for, by the rules of the HTTP gateway's guard: with sign-in off, nobody
 * (null); with it on, the verified token's caller, or 16 without a valid token (14 when the
 * issuer cannot be reached).
 */
export function callerResolver(auth: Auth, robotToken?: RobotTokenLookup) {
  return async (metadata: Metadata): Promise<Caller | null> => {
    if (!auth.enabled) return null;
    const token = metadataToken(metadata);
    if (!token) throw unauthenticated('no authentication token (try logging in)');
    try {
      const { principal, expiration } = await identityOfToken(auth, token, robotToken);
      return { principal, expiration };
    } catch (error) {
      throw verificationError(error) ?? new ApiError(Code.INTERNAL, 'token verification failed');
    }
  };
}
