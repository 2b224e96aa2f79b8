/**
 * The worker thread that owns the embedded database (decision 020-g): it opens PGlite, applies the
 * migrations, and answers the main thread's queries, transactions and LISTENs (pglite-thread.ts).
 * PGlite itself serialises the work (one query at a time; a transaction holds the database until
 * it ends), exactly as it did on the main thread; what changes is that its CPU time no longer
 * stops the server's event loop.
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { markStartup } from '../lib/startup-timing.ts';
import { pgliteCreateOptions } from './pglite-options.ts';
import { createPreparedStatements, isPreparable, type PreparedStatements } from './pglite-prepared.ts';
import { toThreadError, type PgliteWorkerData, type ThreadMessage, type ThreadQueryOptions, type ThreadRequest } from './pglite-thread-protocol.ts';

const port = parentPort!;
const { dataDir, migrationsFolder, loadDataDir } = workerData as PgliteWorkerData;

function post(message: ThreadMessage) {
  port.postMessage(message);
}

function answer(id: number, work: Promise<unknown>): Promise<void> {
  return work.then(
    (value) => post({ type: 'answer', id, ok: true, value }),
    (error: unknown) => post({ type: 'answer', id, ok: false, error: toThreadError(error) }),
  );
}

const keepText = (value: string) => value;

async function runQuery(on: PGlite | Transaction, request: Extract<ThreadRequest, { op: 'query' }>) {
  const options: ThreadQueryOptions = request.options;
  const parsers = Object.fromEntries((options.keepTextTypes ?? []).map((typeId) => [typeId, keepText]));
  const queryOptions = { rowMode: options.rowMode ?? 'object', parsers } as const;
  const result = isPreparable(request.text)
    ? await prepared.query(request.text, request.params, queryOptions, on !== client)
    : await on.query(request.text, request.params, queryOptions);
  return {
    rows: result.rows,
    fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
    affectedRows: result.affectedRows,
  };
}

/** An open transaction: the requests the main thread sends for it, handled as they arrive. */
type OpenTransaction = { deliver: (request: ThreadRequest) => void };
const transactions = new Map<number, OpenTransaction>();
let nextTxId = 1;
/** Thrown inside PGlite's transaction callback to roll it back; never leaves this file. */
const rollbackRequested = Symbol('rollback requested');

function begin(id: number) {
  const txId = nextTxId++;
  let end: Extract<ThreadRequest, { op: 'end' }> | undefined;
  let wakeEnd: (() => void) | undefined;
  const inFlight = new Set<Promise<void>>();
  let tx: Transaction | undefined;
  const early: ThreadRequest[] = [];

  const handle = (request: ThreadRequest) => {
    if (request.op === 'query') {
      const running = answer(request.id, runQuery(tx!, request));
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
    } else if (request.op === 'end') {
      end = request;
      wakeEnd?.();
    } else {
      post({ type: 'answer', id: request.id, ok: false, error: toThreadError(new Error(`${request.op} is not allowed in a transaction`)) });
    }
  };
  transactions.set(txId, { deliver: (request) => (tx ? handle(request) : early.push(request)) });

  client
    .transaction(async (opened) => {
      tx = opened;
      post({ type: 'answer', id, ok: true, value: txId });
      for (const request of early.splice(0)) handle(request);
      if (!end) await new Promise<void>((resolve) => (wakeEnd = resolve));
      // Statements the caller started before ending finish inside the transaction.
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      if (!end!.commit) throw rollbackRequested;
    })
    .then(
      () => post({ type: 'answer', id: end!.id, ok: true, value: undefined }),
      (error: unknown) => {
        if (error === rollbackRequested) post({ type: 'answer', id: end!.id, ok: true, value: undefined });
        else if (end) post({ type: 'answer', id: end.id, ok: false, error: toThreadError(error) });
        // BEGIN itself failed: the opener hears it.
        else post({ type: 'answer', id, ok: false, error: toThreadError(error) });
      },
    )
    .finally(() => transactions.delete(txId));
}

const listening = new Map<string, () => Promise<void>>();

async function listen(channel: string) {
  if (listening.has(channel)) return;
  const unlisten = await client.listen(channel, (payload) => post({ type: 'notification', channel, payload }));
  listening.set(channel, unlisten);
}

async function unlisten(channel: string) {
  const stop = listening.get(channel);
  listening.delete(channel);
  if (stop && !client.closed) await stop();
}

let client: PGlite;
/** Statements parsed once and kept by name (decision 020-i); the least recently used beyond this many are closed. */
let prepared: PreparedStatements;
const preparedCapacity = 500;

async function open(): Promise<boolean> {
  try {
    // A dump to start from (the tests' migrated template) skips initdb; the migrations still run
    // and find everything applied.
    const dump = loadDataDir ? new Blob([await readFile(loadDataDir)]) : undefined;
    markStartup('worker: opening');
    client = await PGlite.create({ dataDir, ...pgliteCreateOptions, loadDataDir: dump });
    markStartup('worker: PGlite open');
    await migrate(drizzle({ client }), { migrationsFolder });
    markStartup('worker: migrations checked');
    prepared = createPreparedStatements(client, { capacity: preparedCapacity });
    return true;
  } catch (error) {
    // The main thread terminates this worker when it hears it.
    post({ type: 'failed', error: toThreadError(error) });
    return false;
  }
}

if (await open()) {
  port.on('message', onRequest);
  post({ type: 'ready' });
}

function onRequest(request: ThreadRequest) {
  if ('txId' in request && request.txId !== undefined) {
    const transaction = transactions.get(request.txId);
    if (transaction) transaction.deliver(request);
    else post({ type: 'answer', id: request.id, ok: false, error: toThreadError(new Error('the transaction has already ended')) });
    return;
  }
  switch (request.op) {
    case 'query':
      void answer(request.id, runQuery(client, request));
      break;
    case 'begin':
      begin(request.id);
      break;
    case 'listen':
      void answer(request.id, listen(request.channel));
      break;
    case 'unlisten':
      void answer(request.id, unlisten(request.channel));
      break;
    case 'close':
      // The main thread terminates the worker once this is answered.
      void answer(request.id, client.close());
      break;
    default:
      break;
  }
}
