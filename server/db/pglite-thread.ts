/**
 * The embedded database on its own thread (decision 020-g). `PgliteThread.start` runs
 * pglite-worker.ts in a worker thread, which opens and migrates PGlite; this side answers with
 * the part of PGlite's interface that drizzle's PGlite driver and the database handle use:
 * `query`, `transaction`, `listen`, `close`. A statement's CPU time (a 100 ms search) is spent on
 * the worker, so the event loop keeps answering static files, live streams and other staff.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import {
  fromThreadError,
  type PgliteWorkerData,
  type ThreadMessage,
  type ThreadQueryOptions,
  type ThreadQueryResult,
  type ThreadRequest,
} from './pglite-thread-protocol.ts';

export type ThreadResults<Row> = Omit<ThreadQueryResult, 'rows'> & { rows: Row[] };
type Parsers = Record<number, (value: string, typeId: number) => unknown>;
export type ThreadQueryConfig = { rowMode?: 'array' | 'object'; parsers?: Parsers };

/** What runs statements: the thread itself, or one of its open transactions. */
export type PgliteThreadQueries = {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[], config?: ThreadQueryConfig): Promise<ThreadResults<Row>>;
};

type StartOptions = PgliteWorkerData & {
  /** Limits of the thread's JavaScript heap (node:worker_threads); exceeding them stops the thread. */
  resourceLimits?: ResourceLimits;
  /** The worker stopped without being closed (a crash): every pending and later call fails. */
  onUnexpectedExit?: (error: Error) => void;
};

/** Request shapes without the id, which `request` assigns. */
type Unsent<Request> = Request extends unknown ? Omit<Request, 'id'> : never;

/**
 * The worker's entry: the bundled pglite-worker.mjs beside the bundled server
 * (scripts/build-server.mjs), or, from the source tree (development, tests, scripts), the
 * TypeScript source beside this file, loaded through tsx's API: Node 20 does not apply a
 * `--import` loader to a worker's own entry module.
 */
function startWorker(workerData: PgliteWorkerData, resourceLimits: ResourceLimits | undefined): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./pglite-worker.mjs', here), { workerData, resourceLimits });
  // The package's `import` entry of tsx/esm/api (require.resolve answers its `require` one, index.cjs).
  const tsxApi = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const source = new URL('./pglite-worker.ts', here).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(here)}))`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

/** Only parsers that keep a type's text cross to the worker (drizzle's are all of that kind). */
function toThreadOptions(config: ThreadQueryConfig | undefined): ThreadQueryOptions {
  const keepTextTypes: number[] = [];
  for (const [typeId, parser] of Object.entries(config?.parsers ?? {})) {
    if (parser('probe', Number(typeId)) !== 'probe') throw new Error(`a parser for type ${typeId} cannot run on the database thread: only text-keeping parsers are supported`);
    keepTextTypes.push(Number(typeId));
  }
  return { rowMode: config?.rowMode, keepTextTypes };
}

export class PgliteThread implements PgliteThreadQueries {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #nextId = 1;
  #stopped: Error | undefined;
  #closing = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /** Starts the thread and resolves with it once the database has opened and migrated. */
  static async start(options: StartOptions): Promise<PgliteThread> {
    const { thread, ready } = PgliteThread.launch(options);
    await ready;
    return thread;
  }

  /**
   * Starts the thread and returns it at once, with `ready`, which resolves once the database has
   * opened and migrated (or rejects as `start` would). Requests made before then wait in the
   * thread's queue: the worker reads them only after migrating (server start-up builds the app
   * meanwhile, decision 023-b); if opening fails, they fail with its error.
   */
  static launch(options: StartOptions): { thread: PgliteThread; ready: Promise<void> } {
    const worker = startWorker({ dataDir: options.dataDir, migrationsFolder: options.migrationsFolder, loadDataDir: options.loadDataDir }, options.resourceLimits);
    const thread = new PgliteThread(worker);
    const ready = new Promise<void>((resolve, reject) => {
      let isReady = false;
      worker.on('message', (message: ThreadMessage) => {
        if (message.type === 'ready') {
          isReady = true;
          resolve();
        } else if (message.type === 'failed') {
          thread.#stop(fromThreadError(message.error));
          reject(thread.#stopped);
          void worker.terminate();
        } else thread.#receive(message);
      });
      const stop = (error: Error) => {
        const first = !thread.#stopped;
        thread.#stop(error);
        if (!isReady) reject(error);
        else if (first && !thread.#closing) options.onUnexpectedExit?.(error);
      };
      worker.on('error', (error) => stop(new Error(`the embedded database stopped: ${error.message}`, { cause: error })));
      worker.on('exit', (code) => stop(new Error(`the embedded database stopped (thread exit ${code})`)));
    });
    return { thread, ready };
  }

  get closed(): boolean {
    return this.#stopped !== undefined || this.#closing;
  }

  #receive(message: ThreadMessage) {
    if (message.type === 'notification') {
      for (const callback of this.#listeners.get(message.channel) ?? []) callback(message.payload);
      return;
    }
    if (message.type !== 'answer') return;
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(fromThreadError(message.error));
  }

  #stop(error: Error) {
    this.#stopped ??= error;
    for (const waiting of this.#pending.values()) waiting.reject(this.#stopped);
    this.#pending.clear();
  }

  #request<Value>(request: Unsent<ThreadRequest>): Promise<Value> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<Value>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id } as ThreadRequest);
    });
  }

  #query<Row>(text: string, params: unknown[] | undefined, config: ThreadQueryConfig | undefined, txId?: number): Promise<ThreadResults<Row>> {
    let options: ThreadQueryOptions;
    try {
      options = toThreadOptions(config);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#request<ThreadResults<Row>>({ op: 'query', text, params: params ?? [], options, ...(txId === undefined ? {} : { txId }) });
  }

  query<Row = Record<string, unknown>>(text: string, params?: unknown[], config?: ThreadQueryConfig): Promise<ThreadResults<Row>> {
    return this.#query<Row>(text, params, config);
  }

  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. The
   * worker holds the database for it meanwhile, as PGlite's own `transaction` does.
   */
  async transaction<T>(work: (tx: PgliteThreadQueries) => Promise<T>): Promise<T> {
    const txId = await this.#request<number>({ op: 'begin' });
    let ended = false;
    const tx: PgliteThreadQueries = {
      query: <Row>(text: string, params?: unknown[], config?: ThreadQueryConfig) =>
        ended ? Promise.reject(new Error('the transaction has already ended')) : this.#query<Row>(text, params, config, txId),
    };
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      ended = true;
      await this.#request({ op: 'end', txId, commit: false }).catch(() => undefined);
      throw error;
    }
    ended = true;
    await this.#request({ op: 'end', txId, commit: true });
    return result;
  }

  /** Calls `callback` with each NOTIFY payload of `channel`; resolves with the function that stops it. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.#listeners.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.#listeners.set(channel, callbacks);
      await this.#request({ op: 'listen', channel });
    }
    callbacks.add(callback);
    return async () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(callback) || current.size > 0) return;
      this.#listeners.delete(channel);
      if (!this.closed) await this.#request({ op: 'unlisten', channel });
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.#closing = true;
    try {
      const id = this.#nextId++;
      await new Promise<void>((resolve, reject) => {
        this.#pending.set(id, { resolve: () => resolve(), reject });
        this.#worker.postMessage({ op: 'close', id } satisfies ThreadRequest);
      });
    } finally {
      this.#stop(new Error('the embedded database is closed'));
      await this.#worker.terminate();
    }
  }
}
