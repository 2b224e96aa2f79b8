/**
 * Writes one archive with the whole database and the uploads (customer photos):
 *
 *   npm run db:backup [-- --out FILE]
 *
 * Uses DATABASE_URL (PostgreSQL: runs while the server runs, from one consistent snapshot) when
 * set, else the embedded database in DATA_DIR, which only one process may open: stop the server
 * first. Photos come from the S3 bucket when STORAGE_URL is set (decision 028-b), else from
 * DATA_DIR/uploads. Restore with npm run db:restore FILE. See decision 017-e.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { exitOnScriptError } from './cli-errors.ts';
import { createObjectStorage, describeObjectStorage } from '#server/adapters/storage/index.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { BackupError, createBackup, defaultBackupFileName } from '#server/db/backup.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { openConfiguredDatabase } from '#server/db/configured.ts';

const usage = 'Usage: npm run db:backup [-- --out FILE]   (default: ./hvac-backup-<date>.tar.gz)';
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** npm runs scripts in the project folder; a relative path means the folder the command was typed in. */
const invokedFrom = process.env.INIT_CWD ?? process.cwd();

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } }, allowPositionals: false });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const config = loadConfig();
  const outFile = path.resolve(invokedFrom, values.out ?? defaultBackupFileName());
  if (fs.existsSync(outFile)) {
    process.stderr.write(`${outFile} already exists; not overwriting it. Choose another --out.\n`);
    return 1;
  }
  const appVersion = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const started = performance.now();
  // Long work: no statement timeout (PostgreSQL), unlike the server's pool.
  const database = await openConfiguredDatabase({ ...config, databaseStatementTimeoutMs: 0 });
  try {
    const storage = config.storage.s3 ? createObjectStorage(config) : undefined;
    const { manifest } = await createBackup({ database, uploadsDir: path.join(config.dataDir, 'uploads'), storage, outFile, appVersion });
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    const size = fs.statSync(outFile).size;
    process.stdout.write(
      `Backed up ${rows} rows in ${manifest.tables.length} tables and ${manifest.files.length} uploaded files ` +
        `(${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}; photos from ${describeObjectStorage(config)}) to ${outFile} ` +
        `(${(size / 1024 / 1024).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s).\n`,
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
    process.stderr.write(
      `Cannot back up ${error.dataDir}: the server (pid ${error.ownerPid}) has the embedded database open, and only one process may. ` +
        'Stop the server, run npm run db:backup, start it again. (With PostgreSQL, DATABASE_URL, backups run while the server runs.)\n',
    );
    process.exitCode = 1;
  } else {
    exitOnScriptError(error, [ConfigError, BackupError], usage);
  }
}
