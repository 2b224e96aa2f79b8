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

const secretKeys = ['password', 'currentPassword', 'newPassword', 'passwordHash', 'password_hash', 'token', 'tokenHash', 'apiKey', 'api_key', 'secret', 'authToken', 'auth_token', 'secretKey', 'secret_key', 'webhookSecret', 'webhook_secret', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'secretAccessKey', 'STORAGE_SECRET_ACCESS_KEY'];

export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  ...secretKeys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

/**
 * Database errors carry the values of the statement that failed: Drizzle's DrizzleQueryError has
 * `params` (and repeats them in its message and stack after "params:"), node-postgres and PGlite
 * errors have `detail` ("Key (email)=(dana@example.com) already exists."), `where` and sometimes the
 * query. Those are e-mails, phones, password hashes. A logged error keeps what explains it (name,
 * message without the values, code, constraint, table, column, severity, stack) and never a bound
 * value. Applied to `err` and `error` (the keys this code base logs errors under), causes included.
 */
const errorFieldsKept = ['name', 'code', 'constraint', 'table', 'column', 'schema', 'severity', 'routine', 'errno', 'syscall', 'statusCode', 'responseCode', 'command', 'type'] as const;
const paramsInText = /\n?\s*params: [\s\S]*$/;

/** PostgreSQL quotes the rejected value in some messages ('invalid input syntax for type uuid: "..."'). */
const quotedValueInText = /((?:invalid input (?:syntax|value) for [^:\n]+|malformed [^:\n]+)): "[^\n]*"/g;

function withoutParams(text: string): string {
  return text.replace(paramsInText, '').replace(quotedValueInText, '$1: [value]');
}

function withoutParamsInStack(stack: string): string {
  // The message (first lines of the stack) may repeat "params: ..." before the "    at" frames.
  const frames = stack.indexOf('\n    at ');
  const head = frames === -1 ? stack : stack.slice(0, frames);
  return `${withoutParams(head)}${frames === -1 ? '' : stack.slice(frames)}`;
}

export function serializeError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error) && (typeof value !== 'object' || value === null || !('message' in value))) return value;
  const error = value as Error & Record<string, unknown>;
  const safe: Record<string, unknown> = { type: error.constructor?.name ?? 'Error', message: withoutParams(String(error.message ?? '')) };
  for (const key of errorFieldsKept) {
    const field = error[key];
    if (field !== undefined && (typeof field === 'string' || typeof field === 'number')) safe[key] = field;
  }
  if (typeof error.stack === 'string') safe.stack = withoutParamsInStack(error.stack);
  if (error.cause !== undefined && depth < 5) safe.cause = serializeError(error.cause, depth + 1);
  if (Array.isArray(error.errors) && depth < 5) safe.errors = error.errors.slice(0, 10).map((inner) => serializeError(inner, depth + 1));
  return safe;
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** The logger settings of the server; tests pass a stream to read what it writes. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths, censor: '[Redacted]' },
    serializers: { err: serializeError, error: serializeError },
    ...(stream ? { stream } : {}),
  } as LoggerOptions;
}

/**
 * Echoes the request id, so a user's report ("it failed, id ...") finds its log lines; with
 * several instances (INSTANCE_NAME), which one answered (X-Served-By).
 */
export function registerRequestIdHeader(app: FastifyInstance, instanceName?: string): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
    if (instanceName) reply.header('x-served-by', instanceName);
  });
}
