/**
 * Copies the photos under DATA_DIR/uploads into the S3 bucket the configuration names:
 *
 *   npm run storage:migrate
 *
 * Every object is read back and its SHA-256 compared with the file's; objects already identical
 * are skipped, so it is safe to run again (e.g. once before switching, once after stopping the old
 * server). Nothing is deleted: remove DATA_DIR/uploads yourself once the server runs on the bucket.
 * Exits 1 when an object did not verify, naming it. See decision 028-b.
 */
import { parseArgs } from 'node:util';
import { exitOnScriptError } from './cli-errors.ts';
import { describeObjectStorage } from '#server/adapters/storage/index.ts';
import { migrateUploadsToBucket, StorageMigrationError } from '#server/adapters/storage/migrate-uploads.ts';
import { ConfigError, loadConfig } from '#server/config.ts';

const usage = 'Usage: npm run storage:migrate   (copies DATA_DIR/uploads into the bucket STORAGE_URL and STORAGE_BUCKET name)';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h', default: false } }, allowPositionals: false });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const config = loadConfig();
  const started = performance.now();
  const report = await migrateUploadsToBucket(config, (done) => {
    if (done % 500 === 0) process.stdout.write(`  ${done} files…\n`);
  });
  for (const failure of report.failed) process.stderr.write(`FAILED ${failure.key}: ${failure.problem}\n`);
  process.stdout.write(
    `${report.files} files in ${config.dataDir}/uploads → ${describeObjectStorage(config)}: ${report.copied} copied, ${report.replaced} replaced (other bytes were there), ` +
      `${report.identical} already identical, ${report.failed.length} failed; every written object read back and its SHA-256 checked ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s).\n`,
  );
  return report.failed.length > 0 ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  exitOnScriptError(error, [ConfigError, StorageMigrationError], usage);
}
