import type { ErrorCode } from '#shared/errors.ts';

/** An error answer from our API, with its HTTP status and the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK',
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export async function apiFetch<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', error instanceof Error ? error.message : 'Network error');
  }
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: ErrorCode; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? 'INTERNAL', error?.message ?? response.statusText, error?.details);
  }
  return body as T;
}

/** The Idempotency-Key of a public submission: a double click or a retry sends the same one, so it is stored once. */
export function newIdempotencyKey(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** A server refusal's message for one field ("password", "newPassword"), if it named that field. */
export function fieldErrorOf(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return undefined;
  const problem = (error.details as { path?: unknown; message?: unknown }[]).find(
    (item) => typeof item.path === 'string' && item.path.split('.').at(-1) === field,
  );
  return typeof problem?.message === 'string' ? problem.message : undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof ApiError && error.status !== 0 && error.status < 500
    ? error.message
    : 'An unexpected error occurred. Please try again.';
}
