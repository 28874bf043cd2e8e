import type { FastifyInstance, FastifyRequest } from 'fastify';

import { ApiError, Code } from '../errors.ts';
import type { Auth } from './auth.ts';
import { sendApiError, unauthenticated } from './guard.ts';
import { expirationOf, type VerifiedIdentity } from './identity.ts';

/** auth_v2.API/WhoAmI's answer. */
export interface WhoAmIResponse {
  /** The user (its email, or the configured claim; its subject without), or `robot:<name>`. */
  username: string;
  /** The token's expiry, RFC 3339 UTC. */
  expiration: string;
}

export const WHO_AM_I_PATH = '/api/auth_v2.API/WhoAmI';

export function whoAmIFromIdentity(identity: VerifiedIdentity): WhoAmIResponse {
  return {
    username: identity.principal.replace(/^user:/, ''),
    expiration: expirationOf(identity.claims.exp),
  };
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
  if (!request.authIdentity) throw unauthenticated('no authentication token (try logging in)');
  return whoAmIFromIdentity(request.authIdentity);
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
