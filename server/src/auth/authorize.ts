import type { FastifyInstance } from 'fastify';

import { ApiError } from '../errors.ts';
import type { Auth } from './auth.ts';
import { sendApiError } from './guard.ts';
import { whoAmI } from './whoami.ts';

export const AUTHORIZE_PATH = '/api/auth_v2.API/Authorize';

/** auth_v2.API/Authorize's answer. */
export interface AuthorizeResponse {
  authorized: boolean;
  satisfied: string[];
  missing: string[];
  principal: string;
}

function requestedPermissions(body: unknown): string[] {
  const permissions = (body as { permissions?: unknown } | null)?.permissions;
  return Array.isArray(permissions) ? permissions.map(String) : [];
}

/**
 * Registers POST /api/auth_v2.API/Authorize for cluster mode (the embedded platform answers it
 * from its role bindings, platform/auth). Here the cluster decides each call itself, so every
 * permission asked for is reported satisfied and a refused call still answers 7.
 */
export function registerAuthorizeRoute(app: FastifyInstance, auth: Auth): void {
  app.post(AUTHORIZE_PATH, async (request, reply) => {
    try {
      const { username } = whoAmI(auth, request);
      const answer: AuthorizeResponse = {
        authorized: true,
        satisfied: requestedPermissions(request.body),
        missing: [],
        principal: `user:${username}`,
      };
      return reply.header('content-type', 'application/json').send(JSON.stringify(answer));
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
  });
}
