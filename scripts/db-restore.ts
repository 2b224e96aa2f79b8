/**
 * Restores an archive made by npm run db:backup into an empty target:
 *
 *   npm run db:restore FILE
 *
 * The target is DATABASE_URL (an empty PostgreSQL database) when set, else DATA_DIR (an empty or
 * new directory); the uploads go to the S3 bucket when STORAGE_URL is set (an empty one), else to
 * DATA_DIR/uploads. A target with any data is
 * refused. Start the server afterwards as usual. See decision 017-e.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createObjectStorage, describeObjectStorage } from '#server/adapters/storage/index.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { BackupError, restoreBackup } from '#server/db/backup.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { openConfiguredDatabase } from '#server/db/configured.ts';

const usage = 'Usage: npm run db:restore FILE   (into an empty DATA_DIR, or the empty database DATABASE_URL names)';

/** npm runs scripts in the project folder; a relative path means the folder the command was typed in. */
const invokedFrom = process.env.INIT_CWD ?? process.cwd();

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { help: { type: 'boolean', short: 'h', default: false } }, allowPositionals: true });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const config = loadConfig();
  const started = performance.now();
  // Long work: no statement timeout (PostgreSQL), unlike the server's pool.
  const database = await openConfiguredDatabase({ ...config, databaseStatementTimeoutMs: 0 });
  try {
    const storage = config.storage.s3 ? createObjectStorage(config) : undefined;
    const result = await restoreBackup({ database, uploadsDir: path.join(config.dataDir, 'uploads'), storage, archive: path.resolve(invokedFrom, positionals[0]!) });
    process.stdout.write(
      `Restored ${result.rows} rows and ${result.files} uploaded files from the backup of ${result.manifest.createdAt} ` +
        `(version ${result.manifest.appVersion}) into ${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'} ` +
        `(photos into ${describeObjectStorage(config)}) ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof DataDirLockedError) {
    process.stderr.write(`Cannot restore into ${error.dataDir}: a running server (pid ${error.ownerPid}) has it open. A restore goes into a new, empty data directory.\n`);
    process.exitCode = 1;
  } else if (error instanceof ConfigError || error instanceof BackupError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
