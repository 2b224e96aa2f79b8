import type { AppConfig } from '../config.ts';
import type { DatabaseHandle } from './client.ts';
import { launchPglite } from './pglite-launch.ts';

/**
 * The database the configuration names: PostgreSQL when DATABASE_URL is set, else the embedded
 * one in DATA_DIR. `onLost`: PostgreSQL: an idle pool connection dropped (the pool reconnects);
 * embedded: the database's thread stopped without being closed (it does not come back).
 */
export function openConfiguredDatabase(config: AppConfig, onLost?: (error: Error) => void): Promise<DatabaseHandle> {
  return startOpening(config, onLost).handle;
}

/** A database being opened, and where to say what to do if it is lost later. */
export type DatabaseOpening = {
  /** Resolves once the database answers (the embedded one: opened and migrated). */
  handle: Promise<DatabaseHandle>;
  /**
   * The embedded database's handle before it is ready, to build the app meanwhile (decision
   * 023-b): its requests wait until the database has opened, and fail if it cannot. Resolves as
   * soon as the query layer has loaded. Undefined for PostgreSQL: its handle comes with `handle`.
   */
  early: Promise<DatabaseHandle> | undefined;
  /** Sets who hears a loss (a loss before this is passed on when it is set). */
  onLost: (handler: (error: Error) => void) => void;
};

function startOpening(config: AppConfig, onLost?: (error: Error) => void): Pick<DatabaseOpening, 'handle' | 'early'> {
  // The query layer (drizzle, the schema) loads beside the thread's start, not before it.
  const client = import('./client.ts');
  if (config.databaseUrl) {
    const { databaseUrl: url, databaseStatementTimeoutMs: statementTimeoutMs } = config;
    return { handle: client.then(({ openDatabase }) => openDatabase({ kind: 'postgres', url, statementTimeoutMs, onPoolError: onLost })), early: undefined };
  }
  let launched: ReturnType<typeof launchPglite>;
  try {
    launched = launchPglite({ dataDir: config.dataDir, onThreadExit: onLost });
  } catch (error) {
    // A locked data dir: raised where `handle` is awaited, as any failure to open.
    return { handle: Promise.reject(error as Error), early: undefined };
  }
  const early = client.then(({ pgliteHandle }) => pgliteHandle(launched));
  return { handle: Promise.all([early, launched.ready]).then(([handle]) => handle), early };
}

/**
 * Starts opening the configured database now, so the embedded one's thread opens and migrates
 * while the rest of the server loads and the app is built (server/main.ts, server/start.ts;
 * decisions 020-g and 023-b). The caller awaits `handle` before serving anything.
 */
export function startOpeningDatabase(config: AppConfig): DatabaseOpening {
  let handler: ((error: Error) => void) | undefined;
  const lostEarly: Error[] = [];
  const { handle, early } = startOpening(config, (error) => (handler ? handler(error) : lostEarly.push(error)));
  // A failure is raised where `handle` is awaited, which may be after other work: not "unhandled" meanwhile.
  handle.catch(() => undefined);
  early?.catch(() => undefined);
  return {
    handle,
    early,
    onLost: (set) => {
      handler = set;
      for (const error of lostEarly.splice(0)) set(error);
    },
  };
}
