import type { FastifyInstance } from 'fastify';
import { AppError } from '#server/errors.ts';
import { describeProblems, nulCharacterMessage, nulCharacterPaths, type FieldProblem } from '#server/validation.ts';

/**
 * Refuses any request whose body, query or route parameters carry a NUL character (issue 15's
 * fuzzing: PostgreSQL cannot store \u0000 in text, so such a value reached the database and came
 * back as a 500). Judged once here, after parsing and before every route's validation, so no
 * schema has to remember it: a 400 naming the fields, like any validation failure.
 */
export function registerNulCharacterGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const fields: FieldProblem[] = [
      ...nulCharacterPaths(request.body),
      ...nulCharacterPaths(request.query).map((path) => `query.${path}`),
      ...nulCharacterPaths(request.params).map((path) => `params.${path}`),
    ].map((path) => ({ path, message: nulCharacterMessage }));
    if (fields.length > 0) throw new AppError('VALIDATION_FAILED', describeProblems(fields), fields);
  });
}
