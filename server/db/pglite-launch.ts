/**
 * Starting the embedded database's thread, without the query layer (drizzle, the schema): the
 * server's first chunk imports this, so the thread starts before the rest of the code loads
 * (server/main.ts, decisions 020-g and 023-b). client.ts wraps the thread in a DatabaseHandle.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { PgliteThread } from './pglite-thread.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Works from the source tree and from the bundled server (build/node), both two levels down. */
export const migrationsFolder = path.join(projectRoot, 'server/db/migrations');

export type PgliteLaunchOptions = {
  /** The data directory (locked, the database in its `pglite` folder), or undefined for one in memory (tests). */
  dataDir: string | undefined;
  /** In memory only: a dump file (PGlite's dumpDataDir) the database starts from, the tests' migrated template. */
  loadDataDir?: string;
  /** The thread stopped without being closed. */
  onThreadExit?: (error: Error) => void;
};

/**
 * The database thread's young generation (decision 024-b): its garbage is each answer's rows on
 * their way to the main thread, dead by the next collection, so a few megabytes of new space do.
 * V8's default grew it to 32 MB of resident semi-spaces under load.
 */
export const pgliteThreadLimits = { maxYoungGenerationSizeMb: 8 };

/**
 * The thread, usable at once (its requests wait until the database has opened and migrated);
 * `ready` resolves then, or rejects (the lock is released); `release` frees the data dir's lock.
 */
export type LaunchedPglite = { thread: PgliteThread; ready: Promise<void>; release: () => void };

/** Locks the data dir (throws DataDirLockedError when another process holds it) and starts the thread. */
export function launchPglite(options: PgliteLaunchOptions): LaunchedPglite {
  const { dataDir, loadDataDir } = options;
  if (dataDir && loadDataDir) throw new Error('loadDataDir starts an in-memory database; a data directory keeps its own contents');
  let lock: DataDirLock | undefined;
  if (dataDir) lock = lockDataDir(dataDir);
  const release = () => lock?.release();
  let launched: ReturnType<typeof PgliteThread.launch>;
  try {
    launched = PgliteThread.launch({
      dataDir: dataDir ? path.join(dataDir, 'pglite') : undefined,
      migrationsFolder,
      loadDataDir,
      onUnexpectedExit: options.onThreadExit,
      resourceLimits: pgliteThreadLimits,
    });
  } catch (error) {
    release();
    throw error;
  }
  const ready = launched.ready.catch((error: unknown) => {
    release();
    throw error;
  });
  // A failure is raised where `ready` is awaited, which may be after other work: not "unhandled" meanwhile.
  ready.catch(() => undefined);
  return { thread: launched.thread, ready, release };
}
