import type { IncomingMessage } from 'node:http';
import { auth_v2 } from '@ivory/api/proto';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../auth/auth.ts';
import { TokenVerificationError } from '../auth/token-verifier.ts';
import { ApiError, Code, invalidArgument } from '../errors.ts';
import { sendJson } from '../http/errors.ts';
import { messageFromJson } from '../platform/typed-method.ts';

/**
 * What the embedded platform offers so that it can stand in for a Pachyderm cluster behind
 * another Ivory in cluster mode (and so that Pachyderm's own clients find what they expect):
 *
 * - `POST /api/auth_v2.API/Authenticate {idToken}` → `{pachToken}`. The pach token is the id
 *   token itself: the guard accepts it in the `authn-token` header and verifies it like any id
 *   token, so it expires with it and needs no server-side state.
 * - `GET|HEAD /pfs/<project>/<repo>/<commit>/<path>`: Pachyderm's file server path, an alias of
 *   `/files/…` (see rewritePfsUrl).
 */
export const AUTHENTICATE_PATH = '/api/auth_v2.API/Authenticate';

export function registerAuthenticateRoute(app: FastifyInstance, auth: Auth): void {
  app.post(AUTHENTICATE_PATH, async (request, reply) => {
    if (!auth.enabled) throw new ApiError(Code.UNIMPLEMENTED, 'the auth service is not activated');
    const { idToken } = messageFromJson(auth_v2.AuthenticateRequestSchema, request.body ?? {});
    if (!idToken)
      throw invalidArgument('idToken is required (OIDC code exchange is not supported)');
    try {
      await auth.verify(idToken);
    } catch (error) {
      if (error instanceof TokenVerificationError && error.reason !== 'unavailable') {
        throw new ApiError(Code.UNAUTHENTICATED, `authentication error: ${error.message}`);
      }
      if (error instanceof TokenVerificationError) {
        throw new ApiError(Code.UNAVAILABLE, error.message);
      }
      throw error;
    }
    return sendJson(reply, 200, { pachToken: idToken });
  });
}

/**
 * Fastify's `rewriteUrl`: `/pfs/<project>/<repo>/<commit>/<path>` (Pachyderm's file server) is
 * served as `/files/<project>/<repo>/<commit>/<path>` — same handler, guard and headers.
 */
export function rewritePfsUrl(request: IncomingMessage): string {
  const url = request.url ?? '/';
  return url.startsWith('/pfs/') ? `/files/${url.slice('/pfs/'.length)}` : url;
}
