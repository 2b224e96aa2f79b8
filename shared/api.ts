import { z } from 'zod';
import { errorStatus } from './errors.ts';

/**
 * Pieces every route contract uses (issue 16, decision 019-i). Each feature's own schemas live in
 * its file (shared/customer.ts, shared/lead.ts, ...); the routes register them as `schema`, so the
 * same zod schema validates the request, serialises the answer and feeds the OpenAPI document.
 */

/**
 * A list's count as its header shows it: "1 lead", "1,234 leads"; a total counted only up to a cap
 * (`totalCapped` in a list answer) reads "1,000+ leads".
 */
export function countLabel(count: number, isCapped: boolean, noun: { one: string; many: string }): string {
  return `${count.toLocaleString('en-US')}${isCapped ? '+' : ''} ${count === 1 && !isCapped ? noun.one : noun.many}`;
}

/** `:id` in an address. Any text: an id that names nothing is the service's 404, as before. */
export const idParamsSchema = z.object({ id: z.string() });

/**
 * The headers of a public submission (estimate requests, chat bookings): an optional
 * Idempotency-Key, with which a repeat returns the first result instead of storing a second one.
 * Header names arrive lowercased. Every other header is kept as it came (a loose object: the
 * validated value replaces `request.headers`).
 */
export const idempotencyHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\w-]{8,128}$/, 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores')
    .optional()
    .describe('Any 8 to 128 letters, digits, dashes or underscores; a repeat with the same key returns the first result.'),
});

/** An answer without a body (204). */
export const noContentSchema = z.null().describe('No content');

/** The body of every error answer (server/plugins/error-handler.ts). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(errorStatus) as [keyof typeof errorStatus, ...(keyof typeof errorStatus)[]]),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});

/** An answer that is not JSON (a CSV download, an event stream, an image): its media type, described. */
export function mediaResponse(contentType: string, description: string) {
  return { description, content: { [contentType]: { schema: z.string() } } };
}
