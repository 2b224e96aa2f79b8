import type { AppConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';

/**
 * The database the configuration names: PostgreSQL when DATABASE_URL is set, else the embedded
 * one in DATA_DIR. `onLost`: PostgreSQL: an idle pool connection dropped (the pool reconnects);
 * embedded: the database's thread stopped without being closed (it does not come back).
 */
export function openConfiguredDatabase(config: AppConfig, onLost?: (error: Error) => void): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl, statementTimeoutMs: config.databaseStatementTimeoutMs, onPoolError: onLost })
    : openDatabase({ kind: 'pglite', dataDir: config.dataDir, onThreadExit: onLost });
}

/** A database being opened, and where to say what to do if it is lost later. */
export type DatabaseOpening = {
  handle: Promise<DatabaseHandle>;
  /** Sets who hears a loss (a loss before this is passed on when it is set). */
  onLost: (handler: (error: Error) => void) => void;
};

/**
 * Starts opening the configured database now, so the embedded one's thread opens and migrates
 * while the rest of the server loads (server/main.ts; decision 020-g). The caller awaits `handle`.
 */
export function startOpeningDatabase(config: AppConfig): DatabaseOpening {
  let handler: ((error: Error) => void) | undefined;
  const lostEarly: Error[] = [];
  const handle = openConfiguredDatabase(config, (error) => (handler ? handler(error) : lostEarly.push(error)));
  // A failure is raised where `handle` is awaited, which may be after other work: not "unhandled" meanwhile.
  handle.catch(() => undefined);
  return {
    handle,
    onLost: (set) => {
      handler = set;
      for (const error of lostEarly.splice(0)) set(error);
    },
  };
}
