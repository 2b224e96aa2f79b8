import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordMessages } from '#shared/auth.ts';
import { openDatabase } from '#server/db/client.ts';
import { verifyPassword } from '#server/modules/auth/password.ts';
import { createPostgresTestDatabase } from '#tests/support/test-database.ts';

// The operator commands, run as a person runs them: a child process, the password on stdin.
let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-scripts-'));
  if (process.env.TEST_DATABASE_URL) {
    const created = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
});
afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase?.();
});

function run(script: string, args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function openScriptDatabase() {
  return databaseUrl ? openDatabase({ kind: 'postgres', url: databaseUrl }) : openDatabase({ kind: 'pglite', dataDir });
}

describe('npm run admin:create', () => {
  it('adds a staff user with the password read from stdin, never from the arguments', async () => {
    const result = await run('scripts/create-admin.ts', ['--email', 'Dispatch@Example.com', '--name', 'Dana Dispatch'], 'a strong password 42\n');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Created staff user dispatch@example.com (Dana Dispatch, admin).');
    expect(result.code).toBe(0);

    const database = await openScriptDatabase();
    try {
      const [row] = await database.query<{ password_hash: string }>(`select password_hash from staff_users where email = 'dispatch@example.com'`);
      expect(await verifyPassword(row!.password_hash, 'a strong password 42')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('refuses a short password and a duplicate email with a clear message', async () => {
    const short = await run('scripts/create-admin.ts', ['--email', 'new@example.com'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain(passwordMessages.tooShort);
    const duplicate = await run('scripts/create-admin.ts', ['--email', 'dispatch@example.com'], 'another long password\n');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('A staff user with the email dispatch@example.com already exists.');
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))('is refused while another process holds the embedded database', async () => {
    const holder = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const result = await run('scripts/create-admin.ts', ['--email', 'late@example.com'], 'a strong password 42\n');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/is in use by another process \(pid \d+\)/);
    } finally {
      await holder.close();
    }
  });
});
