import type { PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * How every embedded database is created: by the worker thread (pglite-worker.ts) and by the tests'
 * global setup, which migrates one in-memory database and dumps it for every test file to start
 * from (tests/support/global-setup.ts, decision 022-c), so both make the same database.
 *
 * PGlite's default buffer cache is PostgreSQL's 128 MB, all of it WebAssembly memory the process
 * never gives back. Pages it does not hold come from the data directory's files, which the
 * operating system caches anyway; at 32 MB the bench's reads are as fast and the server's
 * memory is about 110 MB smaller (decision 020-g).
 */
export const pgliteCreateOptions = {
  extensions: { pg_trgm },
  postgresqlconf: ['shared_buffers=32MB'],
} satisfies PGliteOptions;
