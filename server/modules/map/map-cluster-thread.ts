/**
 * The service's side of the map's clustering thread (map-cluster-worker.ts, decision 023-c). The
 * thread starts on the first map request and does not keep the process alive; if it stops, the next
 * request starts another (the sets it held are loaded again: a lost set is an error for the
 * requests that asked it, and the service's caches forget failed answers).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MapView } from '#shared/map-view.ts';
import type { ClusterReply, ClusterRequest, MarkerKind } from './map-cluster-protocol.ts';
import type { MarkerRows } from './map.repository.ts';

/** A view asked of a set the thread no longer holds (released after a commit, or a restarted thread). */
export class MarkerSetGoneError extends Error {}

/**
 * The worker's entry: the bundled map-cluster-worker.mjs beside the bundled server
 * (scripts/build-server.mjs), or the TypeScript source through tsx's API (as pglite-thread.ts does).
 */
function startWorker(): Worker {
  const here = import.meta.url;
  // A small young generation: the thread's garbage is a parse now and then, and the default
  // (tens of megabytes of semi-spaces) showed as resident memory of the whole server.
  const resourceLimits = { maxYoungGenerationSizeMb: 4 };
  if (!here.endsWith('.ts')) return new Worker(new URL('./map-cluster-worker.mjs', here), { resourceLimits });
  const tsxApi = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const source = new URL('./map-cluster-worker.ts', here).href;
  return new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(here)}))`, { eval: true, resourceLimits });
}

type Unsent = ClusterRequest extends infer Request ? (Request extends unknown ? Omit<Request, 'id'> : never) : never;

export function createClusterThread() {
  let worker: Worker | undefined;
  let generation = 0;
  let nextId = 1;
  let nextSet = 1;
  const pending = new Map<number, { resolve: (answer: string | undefined) => void; reject: (error: Error) => void }>();

  function thread(): Worker {
    if (worker) return worker;
    const started = startWorker();
    generation += 1;
    started.unref();
    const stop = (error: Error) => {
      if (worker !== started) return;
      worker = undefined;
      for (const call of pending.values()) call.reject(error);
      pending.clear();
    };
    started.on('message', (reply: ClusterReply) => {
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (reply.gone) call.reject(new MarkerSetGoneError(`map clustering: ${reply.error}`));
      else if (reply.error) call.reject(new Error(`map clustering: ${reply.error}`));
      else call.resolve(reply.answer);
    });
    started.on('error', (error) => stop(new Error(`the map's clustering thread stopped: ${error.message}`, { cause: error })));
    started.on('exit', (code) => stop(new Error(`the map's clustering thread stopped (exit ${code})`)));
    worker = started;
    return started;
  }

  function request(message: Unsent): Promise<string | undefined> {
    const id = nextId++;
    const target = thread();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // Keep the process alive while an answer is awaited, not otherwise.
      if (pending.size === 1) target.ref();
      target.postMessage({ ...message, id } as ClusterRequest);
    }).finally(() => {
      if (pending.size === 0) worker?.unref();
    }) as Promise<string | undefined>;
  }

  return {
    /** Which thread the sets live on: a restarted thread has none of its predecessor's. */
    get generation(): number {
      return worker ? generation : generation + 1;
    },
    /** Indexes a view's markers (the repository's rows); resolves to the set's handle. */
    async load(kind: MarkerKind, markers: MarkerRows): Promise<number> {
      const set = nextSet++;
      await request({ type: 'load', set, kind, ...markers });
      return set;
    },
    /** Frees a set's memory on the thread (a stopped thread holds nothing: no new one starts for it). */
    async release(set: number): Promise<void> {
      if (worker) await request({ type: 'release', set });
    },
    /** The answer for a box at a zoom of a loaded set, as JSON text. */
    async view(set: number, view: MapView): Promise<string> {
      return (await request({ type: 'view', set, view }))!;
    },
    async close(): Promise<void> {
      const current = worker;
      worker = undefined;
      await current?.terminate();
    },
  };
}

export type ClusterThread = ReturnType<typeof createClusterThread>;
