import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, Code } from '../errors.ts';
import { diskFullError, isDiskFull } from '../platform/storage/disk-full.ts';

/** Turns anything thrown into an ApiError; unexpected failures are logged and hidden. */
export function toApiError(error: unknown, log: FastifyBaseLogger): ApiError {
  if (error instanceof ApiError) return error;
  if (isDiskFull(error)) {
    log.warn({ err: error }, 'a write ran out of disk');
    return diskFullError(error);
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    // Fastify's own request errors: unsupported media type, body too large, bad headers...
    return new ApiError(Code.INVALID_ARGUMENT, (error as Error).message);
  }
  log.error({ err: error }, 'unexpected error');
  return new ApiError(Code.INTERNAL, 'internal error');
}

/** Sends a JSON body with Content-Type exactly `application/json` (no charset parameter). */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(body)));
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return sendJson(reply, error.httpStatus, error.toWire());
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? 0;
      const message = `the request body is larger than the ${Math.round(limit / 1024 / 1024)} MiB limit`;
      return sendError(reply, new ApiError(Code.INVALID_ARGUMENT, message));
    }
    sendError(reply, toApiError(error, request.log));
  });
}
