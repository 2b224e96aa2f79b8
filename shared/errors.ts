/** Error codes of the API and the HTTP status each maps to (shared so the client can read them). */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** The technician already has an appointment at that time; sending again with allowOverlap books it anyway. */
  SCHEDULE_OVERLAP: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** An outside service (the SMS provider) refused or failed what was asked; the message says why. */
  UPSTREAM_FAILED: 502,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** The JSON body of every error answer. */
export type ErrorBody = { error: { code: ErrorCode; message: string; details?: unknown } };
