import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { ApiError, Code } from '../errors.ts';
import type { Auth } from './auth.ts';
import type { VerifiedIdentity } from './identity.ts';
import {
  identityOfToken,
  unauthenticated,
  verificationError,
  type RobotTokenLookup,
} from './token-claims.ts';
import { TokenVerificationError, type IdTokenClaims } from './token-verifier.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified id token's claims, set by the auth guard; null when auth is off. */
    authClaims: IdTokenClaims | null;
    /** Who the verified token stands for (identity.ts), set with `authClaims`. */
    authIdentity: VerifiedIdentity | null;
  }
}

export interface AuthGuardOptions {
  /**
   * Path prefixes that need a token. A prefix ending in '/' covers everything under it; one
   * without covers itself and everything under `prefix/` ('/upload' covers '/upload' and
   * '/upload/start' but not '/uploads').
   */
  prefixes?: string[];
  /** Prefixes whose GET/HEAD requests may carry the token in the cookie instead. */
  cookiePrefixes?: string[];
  /** The cookie the browser keeps the id token in. */
  cookieName?: string;
  /**
   * The server's own tokens (auth_v2 GetRobotToken): the subject of a live one, else null. A
   * token found here is not sent to the identity provider's verifier.
   */
  robotToken?: RobotTokenLookup;
}

export const DEFAULT_GUARDED_PREFIXES = ['/api/', '/upload', '/files/'];
export const DEFAULT_COOKIE_PREFIXES = ['/files/'];
export const AUTH_TOKEN_COOKIE = 'auth-token';
/** The header Pachyderm clients send their token in (gRPC metadata `authn-token`). */
export const PACH_TOKEN_HEADER = 'authn-token';
/**
 * Exact paths that need no token: the platform's Authenticate trades an id token (in its body)
 * for a token, as Pachyderm's does. Only when the route matched is that exact path.
 */
export const UNGUARDED_PATHS = ['/api/auth_v2.API/Authenticate'];

/** Writes an error as `{code, message, details}` with Content-Type exactly application/json. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  // A Buffer payload: Fastify would append '; charset=utf-8' to a string's JSON content type.
  return reply
    .code(error.httpStatus)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(error.toWire())));
}

export { unauthenticated };

export function pathIsGuarded(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => {
    const bare = prefix.replace(/\/+$/, '');
    return path === bare || path.startsWith(`${bare}/`);
  });
}

/** The token from `Authorization: Bearer <token>`; '' when the header is absent or not Bearer. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) return '';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? '';
}

/** The request's token: `Authorization: Bearer …`, else the `authn-token` header; '' if none. */
export function requestToken(request: FastifyRequest): string {
  const bearer = bearerToken(request);
  if (bearer) return bearer;
  const header = request.headers[PACH_TOKEN_HEADER];
  return typeof header === 'string' ? header.trim() : '';
}

export function cookieValue(request: FastifyRequest, name: string): string {
  const header = request.headers.cookie;
  if (!header) return '';
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return '';
}

function requestPath(request: FastifyRequest): string {
  const raw = request.url.split('?', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Adds an onRequest hook that, with authentication on, lets a request under the guarded
 * prefixes through only with a valid id token (claims land in `request.authClaims`). Anything
 * else is answered 401 `{code:16, message, details:[]}` before any handler or body parsing runs.
 * When the issuer cannot be reached the answer is 503 `{code:14, …}` instead (not a sign-out).
 *
 * Call it on the root instance before registering the guarded routes.
 */
export function registerAuthGuard(
  app: FastifyInstance,
  auth: Auth,
  options: AuthGuardOptions = {},
): void {
  const prefixes = options.prefixes ?? DEFAULT_GUARDED_PREFIXES;
  const cookiePrefixes = options.cookiePrefixes ?? DEFAULT_COOKIE_PREFIXES;
  const cookieName = options.cookieName ?? AUTH_TOKEN_COOKIE;

  if (!app.hasRequestDecorator('authClaims')) app.decorateRequest('authClaims', null);
  if (!app.hasRequestDecorator('authIdentity')) app.decorateRequest('authIdentity', null);
  if (!auth.enabled) return;

  app.addHook('onRequest', async (request, reply) => {
    // Both the matched route pattern and the decoded URL are checked, so no spelling of a path
    // that routes to a guarded handler slips through.
    const route = request.routeOptions.url;
    const path = requestPath(request);
    if (!(route && pathIsGuarded(route, prefixes)) && !pathIsGuarded(path, prefixes)) return;
    if (route === path && UNGUARDED_PATHS.includes(path)) return;

    let token = requestToken(request);
    if (
      !token &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      pathIsGuarded(path, cookiePrefixes)
    ) {
      token = cookieValue(request, cookieName);
    }
    if (!token) {
      reply.header('www-authenticate', 'Bearer');
      return sendApiError(reply, unauthenticated('no authentication token (try logging in)'));
    }

    try {
      const identity = await identityOfToken(auth, token, options.robotToken);
      request.authIdentity = identity;
      request.authClaims = identity.claims;
    } catch (error) {
      const answer = verificationError(error);
      if (!answer) {
        request.log.error({ err: error }, 'token verification failed unexpectedly');
        return sendApiError(reply, new ApiError(Code.INTERNAL, 'token verification failed'));
      }
      if (error instanceof TokenVerificationError && error.reason !== 'unavailable')
        reply.header('www-authenticate', 'Bearer error="invalid_token"');
      return sendApiError(reply, answer);
    }
  });
}
