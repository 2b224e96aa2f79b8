import { ConfigError, loadConfig } from './config.ts';
import { startOpeningDatabase } from './db/configured.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { markStartup } from './lib/startup-timing.ts';
import type { RunningServer } from './start.ts';

async function main(): Promise<void> {
  const startedAt = performance.now();
  let server: RunningServer;
  try {
    markStartup('main');
    const config = loadConfig();
    // The database opens (the embedded one on its own thread) while the rest of the server loads:
    // start.ts and everything it imports come in a chunk of their own (scripts/build-server.mjs).
    const opening = startOpeningDatabase(config);
    const { startServer } = await import('./start.ts');
    markStartup('modules loaded');
    server = await startServer(config, opening);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      process.stderr.write(`\n${error.message}\n\n`);
      process.exit(1);
    }
    throw error;
  }
  server.app.log.info({ url: server.url, database: server.database.kind, startupMs: Math.round(performance.now() - startedAt) }, 'ready');

  let isClosing = false;
  const shutdown = (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    server.app.log.info({ signal }, 'shutting down');
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
