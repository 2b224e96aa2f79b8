import { z } from 'zod';
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

/** The Idempotency-Key header of public submissions: a repeat returns the first result. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\w-]{8,128}$/, 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores')
  .optional();
