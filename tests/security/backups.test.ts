import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '#server/db/backup.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { isUntouched, newBackupPlace, seedAndBackUp, tamperWith, type BackupPlace } from '#tests/support/backup-fixture.ts';

// An attacker (or a careless hand) who can give the operator an archive to restore: every edit of
// the manifest below is refused with a message before a row or a file is written. All go into one
// empty target, which must still be empty (so still a valid target) after each.
let workDir: string;
let archive: string;
let source: BackupPlace;
let target: BackupPlace;
let database: DatabaseHandle;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-backup-attack-'));
  source = await newBackupPlace(workDir, 'source', cleanups);
  archive = path.join(workDir, 'backup.tar.gz');
  await seedAndBackUp(source, archive);
  target = await newBackupPlace(workDir, 'target', cleanups);
  database = await target.open();
});
afterAll(async () => {
  await database?.close();
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(workDir, { recursive: true, force: true });
});

let attempt = 0;
async function expectRefused(edit: Parameters<typeof tamperWith>[2], message: RegExp): Promise<void> {
  attempt += 1;
  const tampered = await tamperWith(archive, path.join(workDir, `tampered-${attempt}.tar.gz`), edit);
  await expect(restoreBackup({ database, uploadsDir: target.uploadsDir, archive: tampered })).rejects.toThrow(message);
  expect(await isUntouched(database, target.uploadsDir)).toBe(true);
}

describe('restoring a tampered backup', { timeout: 60_000 }, () => {
  it('refuses a manifest that drops the staff table (to restore customers without their accounts), naming it', async () => {
    await expectRefused((folder, manifest) => {
      manifest.tables = manifest.tables.filter((table) => table.name !== 'staff_users' && table.name !== 'sessions');
      fs.rmSync(path.join(folder, 'database', 'staff_users.ndjson'));
    }, /sessions, staff_users are missing from its manifest|staff_users, sessions are missing from its manifest/);
  });

  it('refuses a table name carrying SQL', async () => {
    await expectRefused((_folder, manifest) => {
      manifest.tables[0]!.name = 'customers"; drop table staff_users; --';
    }, /manifest is damaged: tables\.0\.name/);
  });

  it('refuses a table listed twice (its rows loaded twice)', async () => {
    await expectRefused((_folder, manifest) => {
      manifest.tables.push(manifest.tables.find((table) => table.name === 'customers')!);
    }, /table customers is listed twice/);
  });

  it('refuses a manifest whose lists are not lists', async () => {
    await expectRefused((_folder, manifest) => {
      (manifest as unknown as { files: unknown }).files = 'uploads/../../etc/passwd';
    }, /manifest is damaged: files/);
  });

  it('refuses a sequence value that is not a number', async () => {
    await expectRefused((_folder, manifest) => {
      manifest.sequences[0]!.lastValue = '1); drop table customers; --';
    }, /manifest is damaged: sequences\.0\.lastValue/);
  });

  it('refuses a file entry pointing outside the archive', async () => {
    await expectRefused((_folder, manifest) => {
      manifest.files.push({ path: 'uploads/../../../etc/passwd', bytes: 1, sha256: '0'.repeat(64) });
    }, /unexpected file: uploads\/\.\.\/\.\.\/\.\.\/etc\/passwd/);
  });
});
