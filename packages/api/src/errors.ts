/** gRPC status codes as the platform sends them in `{code, message, details}`. */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/** The 17 code names, indexed by code, for display. */
export const GRPC_CODE_NAMES = Object.keys(GrpcCode) as ReadonlyArray<keyof typeof GrpcCode>;

export function grpcCodeName(code: number): string {
  return GRPC_CODE_NAMES[code] ?? `CODE_${code}`;
}

/** The one error type of every API call: a gRPC-style code, message and details. */
export class ApiError extends Error {
  readonly code: number;
  readonly details: string[];
  readonly status?: number;

  constructor(code: number, message: string, details: string[] = [], status?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
    if (status !== undefined) this.status = status;
  }

  /** Builds an ApiError from a wire error body `{code, message, details}` (fields optional). */
  static fromBody(body: unknown, status?: number): ApiError {
    const record = isRecord(body) ? body : {};
    const code = typeof record.code === 'number' ? record.code : codeForHttpStatus(status);
    const message =
      typeof record.message === 'string' && record.message !== ''
        ? record.message
        : `request failed${status !== undefined ? ` with status ${status}` : ''}`;
    const details = Array.isArray(record.details)
      ? record.details.map((detail) =>
          typeof detail === 'string' ? detail : JSON.stringify(detail),
        )
      : [];
    return new ApiError(code, message, details, status);
  }
}

const HTTP_STATUS_TO_CODE: Record<number, GrpcCode> = {
  400: GrpcCode.INVALID_ARGUMENT,
  401: GrpcCode.UNAUTHENTICATED,
  403: GrpcCode.PERMISSION_DENIED,
  404: GrpcCode.NOT_FOUND,
  409: GrpcCode.ALREADY_EXISTS,
  500: GrpcCode.INTERNAL,
  501: GrpcCode.UNIMPLEMENTED,
  503: GrpcCode.UNAVAILABLE,
};

function codeForHttpStatus(status: number | undefined): number {
  return (status !== undefined && HTTP_STATUS_TO_CODE[status]) || GrpcCode.UNKNOWN;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function codeOf(err: unknown): number | undefined {
  return isRecord(err) && typeof err.code === 'number' ? err.code : undefined;
}

function messageOf(err: unknown): string {
  if (typeof err === 'string') return err;
  return isRecord(err) && typeof err.message === 'string' ? err.message : '';
}

/** Code 7: the call resolves to null rather than failing. */
export function isPermissionDenied(err: unknown): boolean {
  return codeOf(err) === GrpcCode.PERMISSION_DENIED;
}

/** Codes 16 and 13 force a sign-out. */
export function isAuthenticationFailure(err: unknown): boolean {
  const code = codeOf(err);
  return code === GrpcCode.UNAUTHENTICATED || code === GrpcCode.INTERNAL;
}

/** Code 12 or an upstream proxy message: the API cannot be reached. */
export function isConnectivityError(err: unknown): boolean {
  const message = messageOf(err);
  return (
    codeOf(err) === GrpcCode.UNIMPLEMENTED ||
    message.includes('no healthy upstream') ||
    message.includes('upstream connect error')
  );
}

export type ErrorClass =
  'UNAUTHENTICATED' | 'RESOURCE_NOT_FOUND' | 'CONNECTIVITY' | 'PERMISSION_DENIED' | 'GENERIC';

/** Maps any thrown value onto the spec's error catalogue (section 8). */
export function classifyError(err: unknown): ErrorClass {
  const message = messageOf(err);
  if (isAuthenticationFailure(err) || /authentication error/i.test(message))
    return 'UNAUTHENTICATED';
  if (codeOf(err) === GrpcCode.NOT_FOUND || message.includes('not found'))
    return 'RESOURCE_NOT_FOUND';
  if (isConnectivityError(err)) return 'CONNECTIVITY';
  if (isPermissionDenied(err)) return 'PERMISSION_DENIED';
  return 'GENERIC';
}
