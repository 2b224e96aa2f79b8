/**
 * Named prepared statements on PGlite (decision 020-i), used by the database thread
 * (pglite-worker.ts). PGlite's `query()` sends Parse, Describe, Bind, Describe, Execute and Sync
 * for every call, so PostgreSQL parses, analyses and plans the statement every time; for the
 * searches at 20,000 customers planning is as long as executing. Here a statement's text is
 * parsed once under a name (as node-postgres does with a named query, and postgres.js by
 * default), and later calls send only Bind, Describe, Execute and Sync: PostgreSQL keeps the
 * analysed statement and, after five executions, a generic plan when it costs no more than the
 * custom ones (plan_cache_mode = auto). Plans are invalidated by PostgreSQL itself when a table
 * they read changes shape.
 *
 * The exchange is PGlite's own `#runQuery` (same mutexes, same serialisers and parsers, the same
 * file-system sync outside transactions); only the statement name and the skipped Parse differ.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessages = Awaited<ReturnType<PGlite['execProtocolStream']>>;

/** Statements worth keeping: reads and writes Drizzle builds (utility statements are not planned). */
const preparable = /^\s*(select|insert|update|delete|with)\b/i;

/** SQLSTATE 0A000 'cached plan must not change result type': a `select *` whose table gained or lost a column. */
const cachedPlanChangedResultType = '0A000';

export type PreparedStatements = {
  /** Runs `text` as PGlite's `query` would; `inTransaction`: the caller already holds the database (a transaction's statement). */
  query<Row>(text: string, params: unknown[], options: QueryOptions, inTransaction: boolean): Promise<Results<Row>>;
  /** How many statements are prepared now (tests, diagnostics). */
  readonly size: number;
};

export function createPreparedStatements(pg: PGlite, options: { capacity: number }): PreparedStatements {
  /** Statement text → its name and parameter types, in least-recently-used order (a Map keeps insertion order). */
  const statements = new Map<string, { name: string; parameterTypes: number[] }>();
  let nextName = 1;
  const noSync = { syncToFs: false };
  const send = (message: Uint8Array): Promise<BackendMessages> => pg.execProtocolStream(message, noSync);

  async function statementFor(text: string) {
    const known = statements.get(text);
    if (known) {
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `hvac_${nextName++}`;
    await send(protocol.serialize.parse({ name, text }));
    const parameterTypes = parse.parseDescribeStatementResults(await send(protocol.serialize.describe({ type: 'S', name })));
    const prepared = { name, parameterTypes };
    statements.set(text, prepared);
    if (statements.size > options.capacity) {
      const [oldestText, oldest] = statements.entries().next().value!;
      statements.delete(oldestText);
      await send(protocol.serialize.close({ type: 'S', name: oldest.name }));
    }
    return prepared;
  }

  function serialise(params: unknown[], parameterTypes: number[], queryOptions: QueryOptions) {
    return params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const typeId = parameterTypes[index]!;
      const serialize = queryOptions.serializers?.[typeId] ?? pg.serializers[typeId];
      return serialize ? serialize(param) : String(param);
    });
  }

  async function run<Row>(text: string, params: unknown[], queryOptions: QueryOptions, inTransaction: boolean): Promise<Results<Row>> {
    const messages: BackendMessages = [];
    try {
      const { name, parameterTypes } = await statementFor(text);
      const values = serialise(params, parameterTypes, queryOptions);
      messages.push(
        ...(await send(protocol.serialize.bind({ statement: name, values }))),
        ...(await send(protocol.serialize.describe({ type: 'P' }))),
        ...(await send(protocol.serialize.execute({}))),
      );
    } finally {
      // After an error PostgreSQL skips everything up to Sync; Sync also ends the implicit transaction.
      messages.push(...(await send(protocol.serialize.sync())));
    }
    if (!inTransaction) await pg.syncToFs();
    return parse.parseResults(messages, pg.parsers, queryOptions)[0] as Results<Row>;
  }

  /** Forgets a statement PostgreSQL can no longer run as prepared (its tables changed its result's columns). */
  async function forget(text: string) {
    const stale = statements.get(text);
    if (!stale) return;
    statements.delete(text);
    await send(protocol.serialize.close({ type: 'S', name: stale.name }));
    await send(protocol.serialize.sync());
  }

  async function runOrRefresh<Row>(text: string, params: unknown[], queryOptions: QueryOptions, inTransaction: boolean): Promise<Results<Row>> {
    try {
      return await run<Row>(text, params, queryOptions, inTransaction);
    } catch (error) {
      if ((error as { code?: string }).code !== cachedPlanChangedResultType) throw error;
      await forget(text);
      // Inside a transaction the error has already aborted it: the caller sees it, the next call prepares afresh.
      if (inTransaction) throw error;
      return run<Row>(text, params, queryOptions, inTransaction);
    }
  }

  return {
    async query<Row>(text: string, params: unknown[], queryOptions: QueryOptions, inTransaction: boolean): Promise<Results<Row>> {
      if (!preparable.test(text)) throw new Error('not a preparable statement');
      const exclusive = () => pg._runExclusiveQuery(() => runOrRefresh<Row>(text, params, queryOptions, inTransaction));
      // Outside a transaction, wait for any open one to end, as PGlite's `query` does.
      return inTransaction ? exclusive() : pg._runExclusiveTransaction(exclusive);
    },
    get size() {
      return statements.size;
    },
  };
}

export function isPreparable(text: string): boolean {
  return preparable.test(text);
}
