import type { FastifyInstance, FastifyReply } from 'fastify';

import { ApiError, Code, invalidArgument } from '../errors.ts';
import type { Auth } from './auth.ts';
import { resolveRedirectUri } from './redirect-uri.ts';
import { TokenVerificationError } from './token-verifier.ts';

/** What POST /auth/account answers. */
export interface Account {
  name: string;
  email: string;
  /** The token's subject. */
  id: string;
}

function sendFailure(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof TokenVerificationError) {
    const status = error.reason === 'unavailable' ? 503 : 401;
    return reply.code(status).send({ message: `authentication error: ${error.message}` });
  }
  if (error instanceof ApiError)
    return reply.code(error.httpStatus).send({ message: error.message });
  reply.log.error({ err: error }, 'auth route failed');
  return reply.code(500).send({ message: 'internal error' });
}

function bodyField(body: unknown, field: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
}

function requiredString(body: unknown, field: string): string {
  const value = bodyField(body, field);
  if (typeof value !== 'string' || value === '') {
    throw invalidArgument(`${field} is required`);
  }
  return value;
}

/**
 * The sign-in routes (no /api prefix, never behind the guard). Failures answer a 4xx/5xx
 * status with `{message}`; with authentication off, /auth/config answers all empty strings and
 * the other two answer 404.
 */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth): void {
  app.get('/auth/config', async (_request, reply) => {
    try {
      return await auth.clientConfig();
    } catch (error) {
      return sendFailure(reply, error);
    }
  });

  app.post('/auth/exchange', async (request, reply) => {
    try {
      if (!auth.enabled) throw new ApiError(Code.NOT_FOUND, 'authentication is not enabled');
      const code = requiredString(request.body, 'code');
      const redirectUri = resolveRedirectUri(
        request,
        auth.config.publicUrl,
        bodyField(request.body, 'redirectUri'),
      );
      return { idToken: await auth.exchangeCode(code, redirectUri) };
    } catch (error) {
      return sendFailure(reply, error);
    }
  });

  app.post('/auth/account', async (request, reply) => {
    try {
      if (!auth.enabled) throw new ApiError(Code.NOT_FOUND, 'authentication is not enabled');
      const claims = await auth.verify(requiredString(request.body, 'idToken'));
      const account: Account = {
        name: typeof claims.name === 'string' ? claims.name : '',
        email: typeof claims.email === 'string' ? claims.email : '',
        id: claims.sub,
      };
      return account;
    } catch (error) {
      return sendFailure(reply, error);
    }
  });
}
