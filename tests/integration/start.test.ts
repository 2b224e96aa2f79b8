import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { DataDirLockedError } from '#server/db/data-dir-lock.ts';
import { startServer, type RunningServer } from '#server/start.ts';
import { testConfig } from '#tests/support/test-app.ts';
import { createPostgresTestDatabase } from '#tests/support/test-database.ts';

// Start-up as `npm start` does it: migrate, make sure a staff account exists, seed an empty
// database, listen. Runs on a data directory (PGlite) or a fresh PostgreSQL database.
let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-start-'));
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

function start(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(
    testConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'true', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env }),
  );
}

/** Office staff: the demo's technician sign-ins are counted apart. */
const officeStaff = "staff_users where role <> 'technician'";

async function count(server: RunningServer, table: string): Promise<number> {
  const [row] = await server.database.query<{ count: number }>(`select count(*)::int as count from ${table}`);
  return row!.count;
}

describe('first start on an empty database', () => {
  it('creates a staff account with a generated password printed once, seeds demo data and serves', async () => {
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });
    let server: RunningServer;
    try {
      server = await start();
    } finally {
      write.mockRestore();
    }
    try {
      const output = printed.join('');
      const password = /password: (\S+)/.exec(output)?.[1];
      expect(output).toContain('email:    admin@lowcountrycomfort.example');
      expect(password).toMatch(/^[\w-]{24}$/);

      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@lowcountrycomfort.example', password }),
      });
      expect(login.status).toBe(200);

      expect(await count(server, 'customers')).toBeGreaterThan(0);
      expect(await count(server, 'work_orders')).toBeGreaterThan(0);
      expect(await count(server, 'technicians')).toBeGreaterThanOrEqual(2);

      // Each demo technician got a technician-app sign-in, printed once with the admin's (issue 19).
      const technicianSignIns = [...output.matchAll(/email: (\S+\.tech@lowcountrycomfort\.example)\s+password: (\S+)/g)];
      expect(technicianSignIns.length).toBe(await count(server, 'technicians'));
      const [, techEmail, techPassword] = technicianSignIns[0]!;
      const techLogin = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: techEmail, password: techPassword }),
      });
      expect(techLogin.status).toBe(200);
      expect(await techLogin.json()).toMatchObject({ user: { role: 'technician' }, home: '/tech' });
      if (!databaseUrl) {
        // While the server owns the data directory, nobody else may open it.
        await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
      }
    } finally {
      await server.close();
    }
  });
});

describe('later starts on the same database', () => {
  it('neither seeds again nor creates another account, and adds a configured admin once', async () => {
    const configured = { ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'heron marsh tide 123' };
    const first = await start(configured);
    const customers = await count(first, 'customers');
    expect(await count(first, officeStaff)).toBe(2);
    await first.close();

    const second = await start({ ...configured, ADMIN_PASSWORD: 'a different password' });
    try {
      expect(await count(second, 'customers')).toBe(customers);
      expect(await count(second, officeStaff)).toBe(2);
      // An existing account keeps its password: configuration only creates.
      const login = await fetch(`${second.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: 'heron marsh tide 123' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
