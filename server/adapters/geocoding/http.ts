import type { GeocodeOutcome } from './geocoder.ts';

/** What an online provider's request came back with: a parsed JSON body, or the outcome to report. */
export type JsonAnswer = { ok: true; status: number; json: unknown } | { ok: false; outcome: Exclude<GeocodeOutcome, { kind: 'results' }> };

/**
 * Retry-After as milliseconds: delta-seconds ('120') or an HTTP date; null when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function networkCode(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : null;
}

/**
 * GET a provider's URL and read its JSON answer, turning every transport failure into an outcome:
 * HTTP 429 is 'rate-limited' (with Retry-After when sent); any other non-2xx is 'HTTP_<code>' (its
 * body is handed back to the provider first through `readError`, since some services explain
 * themselves in it); a body that is not JSON is 'MALFORMED_RESPONSE'; no answer within `timeoutMs`
 * is 'TIMEOUT'; a refused or dropped connection is 'NETWORK_ERROR'.
 *
 * When the caller's own signal aborts (the batch is stopping) this throws the signal's reason, as
 * fetch does, so the caller does not mistake its own cancellation for the provider's failure.
 * Messages never contain the URL (the Google key travels in its query string).
 */
export async function getJson(
  url: URL,
  options: { headers?: Record<string, string>; timeoutMs: number; signal?: AbortSignal; readError?: (status: number, body: unknown) => string | null },
): Promise<JsonAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...options.headers }, signal });
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      return { ok: false, outcome: { kind: 'error', status: 'TIMEOUT', message: `No answer within ${options.timeoutMs} ms` } };
    }
    return { ok: false, outcome: { kind: 'error', status: 'NETWORK_ERROR', message: networkCode(error) ?? 'The geocoding service could not be reached' } };
  }
  let json: unknown;
  let parsed = true;
  try {
    json = JSON.parse(text);
  } catch {
    parsed = false;
  }
  if (response.status === 429) {
    const message = parsed ? (options.readError?.(response.status, json) ?? null) : null;
    return { ok: false, outcome: { kind: 'rate-limited', status: 'HTTP_429', message: message ?? 'Too many requests', retryAfterMs: retryAfterMs(response.headers.get('retry-after')) } };
  }
  if (!response.ok) {
    const message = parsed ? (options.readError?.(response.status, json) ?? null) : null;
    return { ok: false, outcome: { kind: 'error', status: `HTTP_${response.status}`, message: message ?? (response.statusText || null) } };
  }
  if (!parsed) return { ok: false, outcome: malformed('The answer is not JSON') };
  return { ok: true, status: response.status, json };
}

export function malformed(message: string): Extract<GeocodeOutcome, { kind: 'error' }> {
  return { kind: 'error', status: 'MALFORMED_RESPONSE', message };
}

/**
 * Keeps calls at least `minIntervalMs` apart (from one call's start to the next), however the
 * caller paces them: a provider's usage policy holds even if two callers share it.
 */
export function createThrottle(minIntervalMs: number) {
  let next = 0;
  return async function wait(signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + minIntervalMs;
    const delay = at - now;
    if (delay <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delay);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
}
