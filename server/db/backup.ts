import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { z } from 'zod';
import { assertSafeKey, contentTypeOfKey, type ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import { removedSecretBody } from '#server/modules/email/index.ts';
import type { Database, DatabaseHandle } from './client.ts';

/**
 * Backup and restore (issue 10, decision 017-e): one .tar.gz holding
 *
 *   manifest.json             what is inside: version, date, migration level, row counts, checksums
 *   database/<table>.ndjson   every row of every table of the schema, one JSON object per line
 *   uploads/<key>             every file under DATA_DIR/uploads (customer photos), or every
 *                             object of the bucket when photos are in S3 (decision 028-b)
 *
 * The rows are read in one REPEATABLE READ, READ ONLY transaction (one snapshot: consistent
 * across tables) with SQL only, so the same code backs up PGlite and PostgreSQL. Each row is
 * PostgreSQL's own row_to_json text and goes back through json_populate_recordset: numbers,
 * timestamps (microseconds), arrays and JSON keep their exact values, and no value passes through
 * a JavaScript number or Date.
 */
export const backupFormat = 'lowcountry-hvac-backup';
export const backupFormatVersion = 1;

/**
 * Rows whose content triggers derive from other tables: loaded after those, replacing what the
 * triggers wrote. message_triggers is the messaging planner's queue, filled by a trigger on
 * work_orders: loading the work orders would queue every one of them (and plan a confirmation for
 * every scheduled visit); as a derived table it ends holding exactly what it held at the backup.
 * customer_search and work_order_search are the searches' texts (decision 023-a); an archive made
 * before them has none, and the triggers fill them from the loaded rows.
 */
const derivedTables = new Set(['customer_work_order_counts', 'work_order_status_counts', 'message_triggers', 'customer_search', 'work_order_search']);

/**
 * The archive and its temporary files are readable by their owner only: a backup holds every
 * customer's name, phone and address and the staff's password hashes (issue 15). The staging
 * folders are mkdtemp's 0700.
 */
export const privateFileMode = 0o600;

const fetchSize = 2000;
const insertBatchRows = 1000;

export type BackupManifest = {
  format: typeof backupFormat;
  formatVersion: typeof backupFormatVersion;
  appVersion: string;
  createdAt: string;
  source: DatabaseHandle['kind'];
  migrations: MigrationLevel;
  /** In load order: a table after every table it references; trigger-derived tables last. */
  tables: { name: string; file: string; rows: number; columns: string[]; bytes: number; sha256: string }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  files: { path: string; bytes: number; sha256: string }[];
};

export type MigrationLevel = { count: number; lastHash: string | null };

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

type Executor = Pick<Database, 'execute'>;

async function rowsOf<Row extends Record<string, unknown>>(db: Executor, query: ReturnType<typeof sql>): Promise<Row[]> {
  return (await db.execute<Row>(query)).rows;
}

// The schema, read from the catalog -------------------------------------------------------------

export type TableInfo = { name: string; columns: string[]; primaryKey: string[] };

/** Every table of the public schema in load order (referenced tables first, derived tables last). */
export async function schemaTables(db: Executor): Promise<TableInfo[]> {
  const tables = await rowsOf<{ name: string; columns: string[]; primaryKey: string[] | null }>(
    db,
    sql`select c.relname as name,
               array(select a.attname::text from pg_attribute a
                      where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' order by a.attnum) as columns,
               array(select a.attname::text from pg_index i
                       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                      where i.indrelid = c.oid and i.indisprimary
                      order by array_position(i.indkey::int2[], a.attnum)) as "primaryKey"
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p')
         order by c.relname`,
  );
  const references = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select child.relname as child, parent.relname as parent
          from pg_constraint fk
          join pg_class child on child.oid = fk.conrelid
          join pg_class parent on parent.oid = fk.confrelid
          join pg_namespace n on n.oid = child.relnamespace
         where fk.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`,
  );
  const byName = new Map(tables.map((table) => [table.name, { name: table.name, columns: table.columns, primaryKey: table.primaryKey ?? [] }]));
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new BackupError(`The foreign keys of table ${name} form a cycle; this backup cannot order its rows.`);
    state.set(name, 'visiting');
    for (const reference of references) if (reference.child === name) visit(reference.parent);
    state.set(name, 'done');
    ordered.push(byName.get(name)!);
  };
  for (const table of byName.keys()) if (!derivedTables.has(table)) visit(table);
  for (const table of byName.keys()) if (derivedTables.has(table)) ordered.push(byName.get(table)!);
  return ordered;
}

export async function migrationLevel(db: Executor): Promise<MigrationLevel> {
  const [row] = await rowsOf<{ count: number; lastHash: string | null }>(
    db,
    sql`select (select count(*)::int from drizzle.__drizzle_migrations) as count,
               (select hash from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1) as "lastHash"`,
  );
  return { count: row?.count ?? 0, lastHash: row?.lastHash ?? null };
}

async function sequenceNames(db: Executor): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  return rows.map((row) => row.name);
}

/**
 * Columns replaced in the dump: a set-password link never goes into an archive, sent or not (the
 * link's holder asks for a new one). An unsent secret message is stored as failed, so a restore
 * never sends its blanked body (decision 018-d-outbox-secrets).
 */
const literal = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'`);
const maskedColumns: Record<string, Record<string, ReturnType<typeof sql>>> = {
  outbound_emails: {
    text_body: sql`case when carries_secret then ${literal(removedSecretBody)} else text_body end`,
    html_body: sql`case when carries_secret then null else html_body end`,
    status: sql`case when carries_secret and status = 'pending' then 'failed' else status end`,
    last_error: sql`case when carries_secret and status = 'pending' then ${literal('removed from the backup: it carried a one-time link')} else last_error end`,
  },
};

function selectList(table: TableInfo): ReturnType<typeof sql> {
  const masks = maskedColumns[table.name];
  if (!masks) return sql`*`;
  return sql.join(
    table.columns.map((column) => (masks[column] ? sql`${masks[column]} as ${sql.identifier(column)}` : sql.identifier(column))),
    sql`, `,
  );
}

const orderBy = (table: TableInfo) =>
  table.primaryKey.length > 0 ? sql` order by ${sql.join(table.primaryKey.map((column) => sql.identifier(column)), sql`, `)}` : sql``;

/** Every row of the table as PostgreSQL's JSON text, in primary-key order, `fetchSize` at a time (a cursor: call inside a transaction). */
export async function* tableRowsAsJson(tx: Executor, table: TableInfo): AsyncGenerator<string[]> {
  const cursor = sql.identifier(`backup_${table.name}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for select row_to_json(t)::text as row from (select ${selectList(table)} from ${sql.identifier(table.name)}) t${orderBy(table)}`);
  for (;;) {
    const rows = await rowsOf<{ row: string }>(tx, sql`fetch forward ${sql.raw(String(fetchSize))} from ${cursor}`);
    if (rows.length > 0) yield rows.map((row) => row.row);
    if (rows.length < fetchSize) break;
  }
  await tx.execute(sql`close ${cursor}`);
}

// Files --------------------------------------------------------------------------------------------

async function sha256Of(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Relative paths ('/'-separated) of the regular files under root, sorted; none when root is missing. */
async function listFiles(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

async function write(stream: WriteStream, text: string | Buffer): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function closeStream(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'finish');
}

/**
 * Every object of the store into staging/uploads/<key>, each hashed as it is written. An object
 * deleted since the listing is left out (as a file deleted during a file backup); a key this
 * product would not make (a bucket shared with something else) stops the backup.
 */
async function copyObjects(storage: ObjectStorage, staging: string): Promise<BackupManifest['files']> {
  const files: BackupManifest['files'] = [];
  for await (const key of storage.list()) {
    try {
      assertSafeKey(key);
    } catch {
      throw new BackupError(`The bucket holds an object this product did not write (${JSON.stringify(key.slice(0, 200))}): give the photos a bucket of their own.`);
    }
    const opened = await storage.open(key);
    if (!opened) continue;
    const target = path.join(staging, 'uploads', ...key.split('/'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let bytes = 0;
    const stream = createWriteStream(target, { mode: privateFileMode });
    try {
      for await (const chunk of opened.stream) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
        await write(stream, chunk as Buffer);
      }
    } finally {
      await closeStream(stream);
    }
    files.push({ path: `uploads/${key}`, bytes, sha256: hash.digest('hex') });
  }
  return files;
}

// Backup -----------------------------------------------------------------------------------------

export type BackupResult = { file: string; manifest: BackupManifest };

/**
 * Writes the archive to `outFile` (through `outFile.partial`, renamed when complete). The database
 * snapshot is taken first, then the uploads are read: a photo added meanwhile may be in the
 * archive without its row, never the other way round, except one deleted during the backup.
 */
export async function createBackup(options: {
  database: DatabaseHandle;
  uploadsDir: string;
  /** The photos' S3 store (decision 028-b): its objects are read instead of uploadsDir. */
  storage?: ObjectStorage;
  outFile: string;
  appVersion: string;
  now?: Date;
}): Promise<BackupResult> {
  const outFile = path.resolve(options.outFile);
  await fs.mkdir(path.dirname(outFile), { recursive: true });
  const staging = await fs.mkdtemp(path.join(path.dirname(outFile), '.hvac-backup-'));
  const partial = `${outFile}.partial`;
  try {
    await fs.mkdir(path.join(staging, 'database'));
    const dump = await options.database.db.transaction(
      async (tx) => {
        // A dump of a large table is long work: the pool's statement timeout (PostgreSQL) does not apply.
        await tx.execute(sql`set local statement_timeout = 0`);
        const tables = await schemaTables(tx);
        const migrations = await migrationLevel(tx);
        const dumped: BackupManifest['tables'] = [];
        for (const table of tables) {
          const file = `database/${table.name}.ndjson`;
          const stream = createWriteStream(path.join(staging, file), { mode: privateFileMode });
          const hash = createHash('sha256');
          let rows = 0;
          let bytes = 0;
          try {
            for await (const page of tableRowsAsJson(tx, table)) {
              const text = `${page.join('\n')}\n`;
              hash.update(text);
              bytes += Buffer.byteLength(text);
              rows += page.length;
              await write(stream, text);
            }
          } finally {
            await closeStream(stream);
          }
          dumped.push({ name: table.name, file, rows, columns: table.columns, bytes, sha256: hash.digest('hex') });
        }
        const sequences: BackupManifest['sequences'] = [];
        for (const name of await sequenceNames(tx)) {
          const [state] = await rowsOf<{ lastValue: string; isCalled: boolean }>(
            tx,
            sql`select last_value::text as "lastValue", is_called as "isCalled" from ${sql.identifier(name)}`,
          );
          sequences.push({ name, lastValue: state!.lastValue, isCalled: state!.isCalled });
        }
        return { tables: dumped, migrations, sequences };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );

    const files: BackupManifest['files'] = options.storage ? await copyObjects(options.storage, staging) : [];
    for (const relative of options.storage ? [] : await listFiles(options.uploadsDir)) {
      const source = path.join(options.uploadsDir, ...relative.split('/'));
      const target = path.join(staging, 'uploads', ...relative.split('/'));
      await fs.mkdir(path.dirname(target), { recursive: true });
      // A hard link costs nothing and freezes the file as it is now (uploads are replaced by
      // rename, never rewritten in place); another file system gets a copy.
      const isCopied = await fs
        .link(source, target)
        .catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? Promise.reject(error) : fs.copyFile(source, target)))
        .then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            // Deleted since the listing (a photo removed while a PostgreSQL backup runs): not in this backup.
            if (error.code === 'ENOENT') return false;
            throw error;
          },
        );
      if (isCopied) files.push({ path: `uploads/${relative}`, ...(await sha256Of(target)) });
    }

    const manifest: BackupManifest = {
      format: backupFormat,
      formatVersion: backupFormatVersion,
      appVersion: options.appVersion,
      createdAt: (options.now ?? new Date()).toISOString(),
      source: options.database.kind,
      migrations: dump.migrations,
      tables: dump.tables,
      sequences: dump.sequences,
      files,
    };
    await fs.writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: privateFileMode });
    const entries = ['manifest.json', 'database', ...(files.length > 0 ? ['uploads'] : [])];
    // Created 0600 (an existing .partial would keep its own mode: removed first), then set to
    // exactly 0600 whatever the umask took away, before it gets its final name.
    await fs.rm(partial, { force: true });
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true, mode: privateFileMode }, entries);
    await fs.chmod(partial, privateFileMode);
    await fs.rename(partial, outFile);
    return { file: outFile, manifest };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(partial, { force: true });
  }
}

// Restore ----------------------------------------------------------------------------------------

/** Tables of the target that hold rows (derived tables aside: they follow their sources). */
async function tablesWithRows(db: Executor): Promise<string[]> {
  const found: string[] = [];
  for (const table of await schemaTables(db)) {
    if (derivedTables.has(table.name)) continue;
    const rows = await rowsOf<{ present: boolean }>(db, sql`select exists (select 1 from ${sql.identifier(table.name)}) as present`);
    if (rows[0]?.present) found.push(table.name);
  }
  return found;
}

/** Why the target cannot take a restore, or undefined when it is empty. */
export async function describeNonEmptyTarget(database: DatabaseHandle, uploadsDir: string, storage?: ObjectStorage): Promise<string | undefined> {
  const tables = await tablesWithRows(database.db);
  const files = await listFiles(uploadsDir);
  let objects = 0;
  if (storage) for await (const _key of storage.list()) objects += 1;
  if (tables.length === 0 && files.length === 0 && objects === 0) return undefined;
  const what = [
    ...(tables.length > 0 ? [`the database has rows in ${tables.join(', ')}`] : []),
    ...(files.length > 0 ? [`${uploadsDir} holds ${files.length} file(s)`] : []),
    ...(objects > 0 ? [`the photos' bucket holds ${objects} object(s)`] : []),
  ];
  return (
    `Refusing to restore: the target is not empty (${what.join('; ')}). ` +
    'A restore only goes into an empty data directory (a new DATA_DIR) or an empty database (a new DATABASE_URL database), ' +
    'so it can never mix with or overwrite live data.'
  );
}

function parseManifest(text: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BackupError('The archive has no readable manifest.json: is it a backup made by npm run db:backup?');
  }
  if (manifest.format !== backupFormat) throw new BackupError('The archive is not a backup made by npm run db:backup (its manifest names another format).');
  if (manifest.formatVersion !== backupFormatVersion) {
    throw new BackupError(`The backup has format version ${String(manifest.formatVersion)}; this version of the product reads version ${backupFormatVersion}.`);
  }
  // An edited manifest is refused with a message, not a TypeError halfway through the checks.
  const shape = manifestShape.safeParse(manifest);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    throw new BackupError(`The backup's manifest is damaged: ${issue.path.join('.') || 'manifest'}: ${issue.message}.`);
  }
  const names = manifest.tables.map((table) => table.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new BackupError(`The backup's manifest is damaged: table ${repeated} is listed twice.`);
  return manifest;
}

const manifestShape = z.object({
  appVersion: z.string(),
  createdAt: z.string(),
  migrations: z.object({ count: z.number().int().min(0), lastHash: z.string().nullable() }),
  tables: z.array(
    z.object({
      name: z.string().regex(/^[a-z0-9_]+$/),
      file: z.string(),
      rows: z.number().int().min(0),
      columns: z.array(z.string()),
      bytes: z.number().int().min(0),
      sha256: z.string(),
    }),
  ),
  sequences: z.array(z.object({ name: z.string(), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() })),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int().min(0), sha256: z.string() })),
});

const allowedEntry = /^(?:manifest\.json|database\/[a-z0-9_]+\.ndjson|uploads\/[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*)$/;

export type RestoreResult = { manifest: BackupManifest; rows: number; files: number };

/**
 * Restores an archive into the (migrated, empty) target: every check first (empty target, same
 * migration level, same tables and columns, every checksum), then all rows in one transaction,
 * then the uploads moved into place. A failed restore leaves the target as empty as it was.
 */
export async function restoreBackup(options: {
  database: DatabaseHandle;
  uploadsDir: string;
  /** The photos' S3 store (decision 028-b): the uploads are written there instead of uploadsDir. */
  storage?: ObjectStorage;
  archive: string;
}): Promise<RestoreResult> {
  const archive = path.resolve(options.archive);
  await fs.access(archive).catch(() => {
    throw new BackupError(`No such backup file: ${archive}`);
  });
  const refusal = await describeNonEmptyTarget(options.database, options.uploadsDir, options.storage);
  if (refusal) throw new BackupError(refusal);

  const stagingParent = path.dirname(path.resolve(options.uploadsDir));
  await fs.mkdir(stagingParent, { recursive: true });
  const staging = await fs.mkdtemp(path.join(stagingParent, '.hvac-restore-'));
  try {
    try {
      // Read through once without writing: a truncated or corrupt archive fails here, before anything is extracted.
      await tar.t({ file: archive, strict: true });
      await tar.x({
        file: archive,
        cwd: staging,
        strict: true,
        // Only the names a backup writes, only plain files and folders: no links, nothing outside.
        filter: (entryPath, entry) => {
          const name = entryPath.replace(/^\.\//, '').replace(/\/$/, '');
          const type = 'type' in entry ? entry.type : undefined;
          if (type === 'Directory') return name === 'database' || name === 'uploads' || name.startsWith('uploads/');
          return type === 'File' && allowedEntry.test(name);
        },
      });
    } catch (error) {
      throw new BackupError(`Could not read ${archive} as a .tar.gz backup: ${(error as Error).message}`);
    }
    const manifest = parseManifest(await fs.readFile(path.join(staging, 'manifest.json'), 'utf8').catch(() => ''));

    const target = await migrationLevel(options.database.db);
    if (target.count !== manifest.migrations.count || target.lastHash !== manifest.migrations.lastHash) {
      throw new BackupError(
        `The backup's schema is at migration ${manifest.migrations.count} (made by version ${manifest.appVersion}); this version of the product is at ${target.count}. ` +
          'Restore with the version that made the backup, then start the newer version, which upgrades the database.',
      );
    }
    const tables = await schemaTables(options.database.db);
    const targetTables = new Map(tables.map((table) => [table.name, table]));
    for (const table of manifest.tables) {
      const present = targetTables.get(table.name);
      if (!present || present.columns.join(',') !== table.columns.join(',')) {
        throw new BackupError(`The backup's table ${table.name} does not match this database's (${present ? 'other columns' : 'no such table'}).`);
      }
    }
    // Every table this database expects must be in the backup: a table missing from the manifest
    // (an edited or partial archive) would be restored as empty without a word.
    const inBackup = new Set(manifest.tables.map((table) => table.name));
    const missing = tables.filter((table) => !inBackup.has(table.name)).map((table) => table.name);
    if (missing.length > 0) {
      throw new BackupError(
        `The backup does not cover every table of this database: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing from its manifest. ` +
          'Nothing was restored; use a complete backup made by npm run db:backup.',
      );
    }
    for (const entry of [...manifest.tables.map((table) => ({ path: table.file, sha256: table.sha256, bytes: table.bytes })), ...manifest.files]) {
      if (!allowedEntry.test(entry.path)) throw new BackupError(`The manifest names an unexpected file: ${entry.path}`);
      const actual = await sha256Of(path.join(staging, ...entry.path.split('/'))).catch(() => undefined);
      if (!actual) throw new BackupError(`The archive is incomplete: ${entry.path} is missing.`);
      if (actual.sha256 !== entry.sha256 || actual.bytes !== entry.bytes) throw new BackupError(`The archive is damaged: ${entry.path} does not match its checksum.`);
    }

    // Into a bucket, the objects go first and the rows after: a store failing midway (or the rows'
    // transaction failing) removes the objects written, so a failed restore leaves an empty target
    // to try again, never rows whose photos answer 404.
    const written: string[] = [];
    const removeWritten = async () => {
      for (const key of written) await options.storage?.delete(key).catch(() => undefined);
    };
    if (options.storage) {
      try {
        for (const file of manifest.files) {
          const key = file.path.slice('uploads/'.length);
          written.push(key);
          await options.storage.put(key, await fs.readFile(path.join(staging, ...file.path.split('/'))), contentTypeOfKey(key));
        }
      } catch (error) {
        await removeWritten();
        throw new BackupError(`Could not write the photos into the bucket (${(error as Error).message}); nothing was restored.`);
      }
    }

    let restoredRows = 0;
    try {
      await options.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local statement_timeout = 0`);
        for (const table of manifest.tables) {
          const identifier = sql.identifier(table.name);
          if (derivedTables.has(table.name)) await tx.execute(sql`delete from ${identifier}`);
          const columnList = sql.join(table.columns.map((column) => sql.identifier(column)), sql`, `);
          let batch: string[] = [];
          const flush = async () => {
            if (batch.length === 0) return;
            // Named columns: generated ones (customers.phone_last10) are neither dumped nor written.
            await tx.execute(sql`insert into ${identifier} (${columnList}) select ${columnList} from json_populate_recordset(null::${identifier}, ${`[${batch.join(',')}]`}::json)`);
            batch = [];
          };
          let rows = 0;
          const lines = createInterface({ input: createReadStream(path.join(staging, ...table.file.split('/'))), crlfDelay: Infinity });
          for await (const line of lines) {
            if (line === '') continue;
            batch.push(line);
            rows += 1;
            if (batch.length >= insertBatchRows) await flush();
          }
          await flush();
          if (rows !== table.rows) throw new BackupError(`The archive is damaged: ${table.file} has ${rows} rows, its manifest says ${table.rows}.`);
          restoredRows += rows;
        }
        for (const sequence of manifest.sequences) {
          await tx.execute(sql`select setval(${`public.${quoteIdentifier(sequence.name)}`}::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`);
        }
      });
    } catch (error) {
      await removeWritten();
      throw error;
    }

    if (!options.storage && manifest.files.length > 0) {
      await fs.rm(options.uploadsDir, { recursive: true, force: true });
      await fs.rename(path.join(staging, 'uploads'), options.uploadsDir);
    }
    return { manifest, rows: restoredRows, files: manifest.files.length };
  } finally {
    await fs.rm(staging, { recursive: true, force: true, maxRetries: 5 });
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `hvac-backup-2026-11-21T13-10-26Z.tar.gz`: sorts by date, no ':' (not allowed in Windows file names). */
export function defaultBackupFileName(now = new Date()): string {
  return `hvac-backup-${now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.tar.gz`;
}
