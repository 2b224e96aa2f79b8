import { errorStatus, type ErrorCode } from '#shared/errors.ts';

export type { ErrorBody, ErrorCode } from '#shared/errors.ts';

/**
 * Typed application errors: services throw these, the one error handler (plugins/error-handler.ts)
 * maps them to HTTP answers. The message is safe to show to the user.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** A refusal that lasts a known time (429): sent as the Retry-After header. */
    readonly options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorStatus[code];
  }
}
