import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from './errors.ts';

export type FieldProblem = { path: string; message: string };

/** Field problems as the API reports them, from a zod error. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

export function describeProblems(fields: FieldProblem[]): string {
  return fields.map((field) => (field.path ? `${field.path}: ${field.message}` : field.message)).join('; ');
}

/**
 * Validates with a schema built at request time (e.g. one that knows today's date), answering
 * exactly like route-schema validation does.
 */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const fields = fieldProblems(result.error);
    throw new AppError('VALIDATION_FAILED', describeProblems(fields), fields);
  }
  return result.data;
}

/**
 * A route whose body schema depends on the day (no preferred date before today in the company's
 * time zone): the route's `schema.body` is the schema for the day the server started (it documents
 * the shape), and this compiler validates each request with the schema for the day it arrives, so
 * the answer is the same as any route-schema validation. Use as the route's `validatorCompiler`.
 */
export function validateBodyForToday<RouteSchema>(
  makeBodySchema: (today: string, body: unknown) => z.ZodType,
  today: () => string,
): FastifySchemaCompiler<RouteSchema> {
  return (route) => {
    const zodRoute = { ...route, schema: route.schema as z.ZodType };
    if (route.httpPart !== 'body') return validatorCompiler(zodRoute);
    // The body is passed too: a route with two body shapes picks the schema for the one it received.
    return (data) => validatorCompiler({ ...zodRoute, schema: makeBodySchema(today(), data) })(data);
  };
}

/** The one message for text carrying a NUL character (PostgreSQL cannot store one in text). */
export const nulCharacterMessage = 'Text must not contain NUL characters';

/**
 * Where a request's parsed input carries a string with a NUL character (\u0000), as field paths
 * ('name', 'items.2.note'; '' for the value itself). Keys count too. Walked without recursion:
 * a body within the limit may still nest thousands of levels deep.
 */
export function nulCharacterPaths(value: unknown): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) found.push(path);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) found.push(childPath);
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return found;
}
