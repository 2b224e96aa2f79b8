import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/**
 * Structured JSON logs (pino, Fastify's logger) with a request id on every line a request writes,
 * and without secrets. Fastify's request serializer logs method, URL, host and address only (no
 * headers, no body); the redact paths below are the second line: a cookie, an authorization
 * header or a password that ends up in a logged object anyway is written as "[Redacted]".
 */
export const requestIdHeader = 'x-request-id';

/** A caller's id is kept when it is a short token (a proxy's or load balancer's), so one id follows a request through them. */
const safeRequestId = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdFor(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[requestIdHeader];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && safeRequestId.test(value) ? value : randomUUID();
}

const secretKeys = ['password', 'currentPassword', 'newPassword', 'passwordHash', 'password_hash', 'token', 'tokenHash', 'apiKey', 'api_key', 'secret'];

export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  ...secretKeys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** The logger settings of the server; tests pass a stream to read what it writes. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): LoggerOptions {
  return { level, redact: { paths: redactPaths, censor: '[Redacted]' }, ...(stream ? { stream } : {}) } as LoggerOptions;
}

/** Echoes the request id, so a user's report ("it failed, id ...") finds its log lines. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
  });
}
