import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import type { FastifyBaseLogger } from 'fastify';
import { toApiError } from '../http/errors.ts';

/** Anything thrown, as a gRPC status: the platform's errors keep their code and message. */
export function toServiceError(error: unknown, log: FastifyBaseLogger): Partial<ServiceError> {
  const apiError = toApiError(error, log);
  return Object.assign(new Error(apiError.message), {
    code: apiError.code as status,
    details: apiError.message,
    metadata: new Metadata(),
  });
}
