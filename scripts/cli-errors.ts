/**
 * How the maintenance scripts (db:backup, storage:migrate) end on an error: an error they expect
 * (a bad configuration, a refused backup) is its message and exit code 1, a bad command line its
 * message with the usage and exit code 2; anything else is thrown, with its stack.
 */
export function exitOnScriptError(error: unknown, expected: readonly (abstract new (...args: never[]) => Error)[], usage: string): void {
  if (expected.some((kind) => error instanceof kind)) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } else if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${error.message}\n${usage}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
