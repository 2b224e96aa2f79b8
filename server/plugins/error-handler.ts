import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorBody } from '#server/errors.ts';
import { describeProblems } from '#server/validation.ts';

/** The one place that turns errors into answers. 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      if (error.options.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.options.retryAfterSeconds));
      return reply.status(error.status).send({
        error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A header's message names the header itself (Idempotency-Key): it is reported without a field path.
      const isHeader = (error as { validationContext?: string }).validationContext === 'headers';
      const fields = error.validation.map((issue) => ({
        path: isHeader ? '' : issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: issue.message ?? 'Invalid value',
      }));
      return reply
        .status(400)
        .send({ error: { code: 'VALIDATION_FAILED', message: describeProblems(fields), details: fields } } satisfies ErrorBody);
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 413) {
      return reply.status(413).send({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' } } satisfies ErrorBody);
    }
    if (status === 429) {
      return reply
        .status(429)
        .send({ error: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a moment and try again.' } } satisfies ErrorBody);
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: { code: 'VALIDATION_FAILED', message: (error as Error).message } } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: 'An unexpected error occurred.' } } satisfies ErrorBody);
  });

}
