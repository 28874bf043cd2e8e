import type { FastifyInstance, FastifyRequest } from 'fastify';

import { ApiError, Code } from '../errors.ts';
import type { Auth } from './auth.ts';
import { sendApiError, unauthenticated } from './guard.ts';
import type { IdTokenClaims } from './token-verifier.ts';

/** auth_v2.API/WhoAmI's answer. */
export interface WhoAmIResponse {
  /** The token's email, or its subject when it has none. */
  username: string;
  /** The token's expiry, RFC 3339 UTC. */
  expiration: string;
}

export const WHO_AM_I_PATH = '/api/auth_v2.API/WhoAmI';

export function whoAmIFromClaims(claims: IdTokenClaims): WhoAmIResponse {
  const username = typeof claims.email === 'string' && claims.email ? claims.email : claims.sub;
  const expiration = new Date(claims.exp * 1000).toISOString().replace('.000Z', 'Z');
  return { username, expiration };
}

/** The caller of a request that went through the guard, as pachd names principals. */
export function callerFromClaims(claims: IdTokenClaims): { principal: string; expiration: string } {
  const principal =
    typeof claims.principal === 'string' && claims.principal.startsWith('robot:')
      ? claims.principal
      : `user:${typeof claims.email === 'string' && claims.email ? claims.email.toLowerCase() : claims.sub}`;
  const expiration = claims.exp
    ? new Date(claims.exp * 1000).toISOString().replace('.000Z', 'Z')
    : '';
  return { principal, expiration };
}

/**
 * WhoAmI for a request that went through the guard. Throws ApiError: UNIMPLEMENTED (12, like
 * the platform's "auth service is not activated") when authentication is off, UNAUTHENTICATED
 * if the request carries no verified claims.
 */
export function whoAmI(auth: Auth, request: FastifyRequest): WhoAmIResponse {
  if (!auth.enabled) {
    throw new ApiError(Code.UNIMPLEMENTED, 'the auth service is not activated');
  }
  if (!request.authClaims) throw unauthenticated('no authentication token (try logging in)');
  return whoAmIFromClaims(request.authClaims);
}

/** Registers POST /api/auth_v2.API/WhoAmI on its own (for a server without an RPC table). */
export function registerWhoAmIRoute(app: FastifyInstance, auth: Auth): void {
  app.post(WHO_AM_I_PATH, async (request, reply) => {
    try {
      return whoAmI(auth, request);
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
  });
}
