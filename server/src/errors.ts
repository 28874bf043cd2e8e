/** gRPC status codes the platform answers with. */
export const Code = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type CodeNumber = (typeof Code)[keyof typeof Code];

const httpStatusByCode: Record<CodeNumber, number> = {
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  // Out of disk (or another resource): 507 Insufficient Storage names it better than gRPC
  // gateway's 429; the body's code is 8 either way.
  8: 507,
  9: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

/** The one error type of the server: a gRPC code, a message, and optional details. */
export class ApiError extends Error {
  constructor(
    readonly code: CodeNumber,
    message: string,
    readonly details: unknown[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get httpStatus(): number {
    return httpStatusByCode[this.code];
  }

  toWire(): { code: number; message: string; details: unknown[] } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export const invalidArgument = (message: string) => new ApiError(Code.INVALID_ARGUMENT, message);
export const notFound = (message: string) => new ApiError(Code.NOT_FOUND, message);
export const alreadyExists = (message: string) => new ApiError(Code.ALREADY_EXISTS, message);
export const failedPrecondition = (message: string) =>
  new ApiError(Code.FAILED_PRECONDITION, message);
export const unimplemented = (message: string) => new ApiError(Code.UNIMPLEMENTED, message);
