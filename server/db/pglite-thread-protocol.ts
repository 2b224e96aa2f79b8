/**
 * The messages between the server's main thread and the worker thread that owns the embedded
 * database (pglite-thread.ts ↔ pglite-worker.ts, decision 020-g). Plain data only: every message
 * crosses with the structured-clone algorithm.
 */

/** Where the worker opens its database, and the migrations it applies first. */
export type PgliteWorkerData = {
  /** The PGlite data directory; undefined = in memory. */
  dataDir: string | undefined;
  migrationsFolder: string;
  /**
   * A file holding a dump of a data directory (PGlite's dumpDataDir, a tar) that an in-memory
   * database starts from instead of an empty one: the tests' migrated template (decision 022-c).
   */
  loadDataDir?: string;
};

/**
 * A query's options as they cross: PGlite's `parsers` are functions, which cannot. Drizzle passes
 * only identity parsers (timestamps, dates, intervals and some arrays stay text), so the type ids
 * whose text is kept are enough.
 */
export type ThreadQueryOptions = { rowMode?: 'array' | 'object'; keepTextTypes?: number[] };

export type ThreadRequest =
  | { id: number; op: 'query'; text: string; params: unknown[]; options: ThreadQueryOptions; txId?: number }
  /** Opens a transaction; the answer is its txId once the worker holds the database for it. */
  | { id: number; op: 'begin' }
  /** Ends a transaction: commit, or roll back. */
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

/** A database error's fields (code, constraint, detail, …): the ones callers inspect. */
export type ThreadError = { name: string; message: string; fields: Record<string, string | number | boolean> };

export type ThreadQueryResult = {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
};

export type ThreadMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: ThreadError }
  | { type: 'notification'; channel: string; payload: string };

/** Error properties that never cross: PGlite attaches the statement's parameters (customer data) and options. */
const withheldErrorFields = new Set(['params', 'queryOptions', 'stack', 'message', 'name']);

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (withheldErrorFields.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** The error as the caller's thread raises it: same message, name and fields; the stack is the caller's. */
export function fromThreadError(error: ThreadError): Error {
  const raised = new Error(error.message);
  Object.assign(raised, error.fields);
  raised.name = error.name;
  return raised;
}
