/**
 * Error codes that cross boundaries. Inside a layer code throws ApiError; the router turns it into
 * the envelope with `error.code` equal to the HTTP status.
 */
export const ErrorCode = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  conflict: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  unprocessable: 422,
  tooManyRequests: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A failure with an HTTP status and, optionally, the `response` payload the spec asks for. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly response: unknown = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
