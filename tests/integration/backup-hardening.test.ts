import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, privateFileMode, restoreBackup, type BackupManifest } from '#server/db/backup.ts';
import { isUntouched, newBackupPlace, seedAndBackUp, tamperWith, type BackupPlace } from '#tests/support/backup-fixture.ts';

// Issue 15, should fix "Backups": archives were written with the umask's mode (0644: any local
// user could read every customer and the staff's password hashes), and a restore accepted an
// archive whose manifest left a table out (restored as empty without a word).
let workDir: string;
let source: BackupPlace;
let archive: string;
let manifest: BackupManifest;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-backup-hardening-'));
  source = await newBackupPlace(workDir, 'source', cleanups);
  archive = path.join(workDir, 'backup.tar.gz');
  const previousUmask = process.umask(0o000);
  try {
    manifest = await seedAndBackUp(source, archive);
  } finally {
    process.umask(previousUmask);
  }
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('backup archives are private', () => {
  it('a backup was readable by every local user (umask mode): the archive is 0600 even with umask 000', () => {
    expect(modeOf(archive)).toBe(0o600);
    expect(privateFileMode).toBe(0o600);
  });

  it('writes its temporary files 0600 too, and never lets a leftover .partial keep a wider mode', async () => {
    const outFile = path.join(workDir, 'second.tar.gz');
    fs.writeFileSync(`${outFile}.partial`, 'left over by a killed backup', { mode: 0o666 });
    fs.chmodSync(`${outFile}.partial`, 0o666);
    const seen: { file: string; mode: number }[] = [];
    const watcher = fs.watch(workDir, { recursive: true }, (_event, name) => {
      const file = path.join(workDir, String(name));
      try {
        if (fs.statSync(file).isFile() && (file.includes('.hvac-backup-') || file.endsWith('.partial'))) seen.push({ file, mode: modeOf(file) });
      } catch {
        // Gone already.
      }
    });
    const previousUmask = process.umask(0o000);
    const database = await source.open();
    try {
      await createBackup({ database, uploadsDir: source.uploadsDir, outFile, appVersion: '0.1.0-test' });
    } finally {
      await database.close();
      process.umask(previousUmask);
      watcher.close();
    }
    expect(modeOf(outFile)).toBe(0o600);
    const written = seen.filter((entry) => !entry.file.includes(`${path.sep}uploads${path.sep}`));
    expect(written.length).toBeGreaterThan(0);
    for (const entry of written) expect(entry).toEqual({ file: entry.file, mode: 0o600 });
  });

  it('npm run db:backup under umask 000 writes a 0600 archive', { timeout: 120_000 }, async () => {
    const out = path.join(workDir, 'cli.tar.gz');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('sh', ['-c', `umask 000 && exec "${process.execPath}" --import tsx scripts/db-backup.ts --out "${out}"`], {
        env: { ...process.env, DATA_DIR: source.dataDir, DATABASE_URL: source.databaseUrl ?? '', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(modeOf(out)).toBe(0o600);
  });
});

describe('restore checks the archive covers every table', () => {
  it('a backup missing a table was restored without it: it is refused, naming the table, and nothing is written', async () => {
    expect(manifest.tables.map((table) => table.name)).toContain('staff_users');
    const tampered = await tamperWith(archive, path.join(workDir, 'no-staff.tar.gz'), (folder, edited) => {
      edited.tables = edited.tables.filter((table) => table.name !== 'staff_users');
      fs.rmSync(path.join(folder, 'database', 'staff_users.ndjson'));
    });
    const target = await newBackupPlace(workDir, 'target-missing-table', cleanups);
    const database = await target.open();
    try {
      await expect(restoreBackup({ database, uploadsDir: target.uploadsDir, archive: tampered })).rejects.toThrow(
        /does not cover every table of this database: staff_users is missing from its manifest/,
      );
      expect(await isUntouched(database, target.uploadsDir)).toBe(true);
      // The complete archive still restores into that same target.
      await restoreBackup({ database, uploadsDir: target.uploadsDir, archive });
      expect(await isUntouched(database, target.uploadsDir)).toBe(false);
    } finally {
      await database.close();
    }
  });
});
