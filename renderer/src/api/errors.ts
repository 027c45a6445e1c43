/** A request that did not produce the expected answer; `message` is meant for the operator. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the agent could not be reached at all. */
    readonly status: number,
    /** The envelope's response, for failures that carry details (violations, restream text). */
    readonly response?: unknown,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** The token is missing or was refused (HTTP 401). */
export class UnauthorizedError extends ApiRequestError {
  constructor(message: string) {
    super(message, 401);
    this.name = 'UnauthorizedError';
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
