import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { ConfigError } from '#server/config.ts';
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

// Decision 023-b: the app is built and the staff-account check queued while the embedded database
// opens, and the outbox and messaging start their first sweeps once the server listens.
describe('start-up order', () => {
  it('still sends, once listening, an e-mail a previous run left queued', async () => {
    const first = await start();
    const [queued] = await first.database.query<{ id: string }>(
      `insert into outbound_emails (recipients, subject, text_body) values (array['left@example.com'], 'Left queued', 'Sent at the next start.') returning id`,
    );
    await first.close();

    const second = await start();
    try {
      // The outbox's first sweep was started by the start-up; nothing else kicks it here.
      await second.app.emailOutbox.idle();
      const [row] = await second.database.query<{ status: string }>(`select status from outbound_emails where id = $1`, [queued!.id]);
      expect(row!.status).toBe('sent');
    } finally {
      await second.close();
    }
  });

  // The password is checked only when no staff account exists yet: true of a fresh data directory,
  // not of the PostgreSQL database this file shares with its other tests (the check's code is the
  // same on both databases).
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))('stops with a configuration error when the configured admin password is refused, and frees the data directory', async () => {
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-start-refused-'));
    try {
      const refused = startServer(
        testConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: ownDir,
          SEED_DEMO: 'false',
          ADMIN_EMAIL: 'owner@example.com',
          ADMIN_PASSWORD: 'password1234',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        }),
      );
      await expect(refused).rejects.toBeInstanceOf(ConfigError);
      await expect(refused).rejects.toThrow(/ADMIN_PASSWORD/);
      if (!databaseUrl) {
        // The app built meanwhile and the database thread are closed: the data directory opens again.
        const reopened = await openDatabase({ kind: 'pglite', dataDir: ownDir });
        expect(await reopened.query(`select count(*)::int as count from staff_users where email = 'owner@example.com'`)).toEqual([{ count: 0 }]);
        await reopened.close();
      }
    } finally {
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  });
});
