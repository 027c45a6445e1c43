import { text } from '../i18n/language.js';

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

/** The browsers' own words for "no answer at all" (Chromium, Firefox, Safari, Node's fetch). */
const NO_ANSWER = /failed to fetch|fetch failed|networkerror|load failed|network request failed|econnrefused/i;

/**
 * Why the agent could not be reached, in plain words: the browser's "Failed to fetch" says nothing
 * to an operator, so it becomes "no answer"; any other cause (an IPC error, a timeout) is kept.
 */
export function unreachableText(cause: unknown): string {
  const detail = cause instanceof Error ? cause.message : String(cause);
  if (NO_ANSWER.test(detail)) return text('notices.noAnswer');
  return text('notices.cannotReach', { detail });
}
