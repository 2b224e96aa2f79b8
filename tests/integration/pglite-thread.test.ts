import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase, withTransaction, type DatabaseHandle } from '#server/db/client.ts';
import { PgliteThread } from '#server/db/pglite-thread.ts';

/** Decision 020-g: the embedded database answers from its own worker thread (the PostgreSQL run has no embedded database to test). */
const embeddedOnly = describe.skipIf(Boolean(process.env.TEST_DATABASE_URL));

embeddedOnly('the embedded database on its own thread', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: undefined });
    await database.query('create table thread_probe (id int primary key, label text not null)');
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps the event loop turning while a long statement runs', async () => {
    let finished = false;
    const running = database.query(`select count(*) as n from generate_series(1, 3000000)`).then((rows) => {
      finished = true;
      return rows;
    });
    // On the main thread the statement would hold the loop until it ended: no timer could fire
    // before it finished. Here timers keep firing while it runs.
    let turnsWhileRunning = 0;
    while (!finished) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (!finished) turnsWhileRunning += 1;
    }
    expect(await running).toEqual([{ n: 3000000 }]);
    expect(turnsWhileRunning).toBeGreaterThanOrEqual(3);
  });

  it('commits a transaction that resolves and rolls back one that throws, savepoints included', async () => {
    await withTransaction(database.db, async (tx) => {
      await tx.execute(sql`insert into thread_probe values (1, 'kept')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into thread_probe values (2, 'undone by its savepoint')`);
          throw new Error('inner failure');
        })
        .catch(() => undefined);
    });
    await expect(
      withTransaction(database.db, async (tx) => {
        await tx.execute(sql`insert into thread_probe values (3, 'rolled back')`);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await database.query('select id, label from thread_probe order by id')).toEqual([{ id: 1, label: 'kept' }]);
  });

  it('runs concurrent transactions one after another: no update is lost', async () => {
    await database.query(`insert into thread_probe values (10, '0')`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withTransaction(database.db, async (tx) => {
          const read = await tx.execute<{ label: string }>(sql`select label from thread_probe where id = 10`);
          await tx.execute(sql`update thread_probe set label = ${String(Number(read.rows[0]!.label) + 1)} where id = 10`);
        }),
      ),
    );
    expect(await database.query('select label from thread_probe where id = 10')).toEqual([{ label: '20' }]);
  });

  it('makes a statement outside an open transaction wait for its end: it never runs inside it', async () => {
    let outside: Promise<Array<{ n: number }>> | undefined;
    let outsideAnswered = false;
    await withTransaction(database.db, async (tx) => {
      await tx.execute(sql`insert into thread_probe values (20, 'inside')`);
      outside = database.query<{ n: number }>('select count(*)::int as n from thread_probe where id = 20').then((rows) => {
        outsideAnswered = true;
        return rows;
      });
      // Two more round trips inside the transaction while the outside statement waits.
      await tx.execute(sql`select 1`);
      await tx.execute(sql`update thread_probe set label = 'still inside' where id = 20`);
      expect(outsideAnswered).toBe(false);
    });
    expect(await outside).toEqual([{ n: 1 }]);
    await database.query('delete from thread_probe where id = 20');
  });

  it("raises the database's error with its code and constraint, without the statement's parameters", async () => {
    const failure = await withTransaction(database.db, (tx) => tx.execute(sql`insert into thread_probe values (1, ${'secret@example.com'})`)).catch(
      (error: unknown) => error,
    );
    const cause = (failure as { cause?: Record<string, unknown> }).cause ?? (failure as Record<string, unknown>);
    expect(cause).toMatchObject({ code: '23505', constraint: 'thread_probe_pkey' });
    expect(cause).not.toHaveProperty('params');
    expect(JSON.stringify(cause)).not.toContain('secret@example.com');
    // The failed transaction ended: the database still answers.
    expect(await database.query('select count(*)::int as n from thread_probe')).toEqual([{ n: 2 }]);
  });

  it('keeps a 32 MB buffer cache rather than 128 MB of WebAssembly memory', async () => {
    expect(await database.query('show shared_buffers')).toEqual([{ shared_buffers: '32MB' }]);
  });

  it('keeps text types as text for drizzle and gives dates to raw queries', async () => {
    const [viaDrizzle] = (await database.db.execute<{ at: unknown }>(sql`select timestamptz '2026-01-02 03:04:05+00' as at`)).rows;
    expect(typeof viaDrizzle!.at).toBe('string');
    const [raw] = await database.query<{ at: unknown }>(`select timestamptz '2026-01-02 03:04:05+00' as at`);
    expect(raw!.at).toEqual(new Date('2026-01-02T03:04:05Z'));
  });

  it('delivers NOTIFY payloads to listeners until they stop', async () => {
    const received: string[] = [];
    let wake: (() => void) | undefined;
    const stop = await database.listen('thread_probe_channel', {
      onNotification: (payload) => {
        received.push(payload);
        wake?.();
      },
    });
    const arrived = new Promise<void>((resolve) => (wake = resolve));
    await database.query(`select pg_notify('thread_probe_channel', 'hello')`);
    await arrived;
    expect(received).toEqual(['hello']);
    await stop();
    await database.query(`select pg_notify('thread_probe_channel', 'after stop')`);
    // A later statement's answer comes after any notification the earlier one caused.
    await database.query('select 1');
    expect(received).toEqual(['hello']);
  });
});

embeddedOnly('starting and stopping the thread', () => {
  it('refuses to start with the reason when the migrations cannot be applied', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-migrations-'));
    await expect(PgliteThread.start({ dataDir: undefined, migrationsFolder: empty })).rejects.toThrow(/journal|migrations|meta/i);
  });

  it('answers requests made before the database is ready once it has opened and migrated (start-up builds the app meanwhile)', async () => {
    const { thread, ready } = PgliteThread.launch({ dataDir: undefined, migrationsFolder });
    // Sent at once: the migrated table is there by the time the statement runs.
    const early = thread.query<{ count: number }>('select count(*)::int as count from staff_users');
    const transaction = thread.transaction((tx) => tx.query<{ one: number }>('select 1 as one'));
    await ready;
    expect((await early).rows).toEqual([{ count: 0 }]);
    expect((await transaction).rows).toEqual([{ one: 1 }]);
    await thread.close();
  });

  it('fails the requests made before the database is ready with the reason it could not open', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-migrations-'));
    const { thread, ready } = PgliteThread.launch({ dataDir: undefined, migrationsFolder: empty });
    const early = thread.query('select 1');
    await expect(ready).rejects.toThrow(/journal|migrations|meta/i);
    await expect(early).rejects.toThrow(/journal|migrations|meta/i);
    await expect(thread.query('select 1')).rejects.toThrow(/journal|migrations|meta/i);
  });

  it('fails the pending and every later call with the reason when the thread stops, and tells its owner', async () => {
    const lost: Error[] = [];
    const thread = await PgliteThread.start({
      dataDir: undefined,
      migrationsFolder,
      resourceLimits: { maxOldGenerationSizeMb: 48 },
      onUnexpectedExit: (error) => lost.push(error),
    });
    expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    // A result far larger than the thread's heap: the thread dies of it, as it would of a crash.
    const tooLarge = thread.query(`select i, repeat('x', 200) as filler from generate_series(1, 1500000) as i`);
    await expect(tooLarge).rejects.toThrow(/the embedded database stopped: .*memory/);
    await expect(thread.query('select 1')).rejects.toThrow(/the embedded database stopped/);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toMatch(/the embedded database stopped/);
    await thread.close();
  });

  it('answers nothing after close, with a clear error, and keeps the data on disk', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-'));
    const thread = await PgliteThread.start({ dataDir, migrationsFolder });
    await thread.query(`insert into technicians (name, color) values ('Kept Across Restarts', '#123456')`);
    await thread.close();
    await expect(thread.query('select 1')).rejects.toThrow('the embedded database is closed');

    const reopened = await PgliteThread.start({ dataDir, migrationsFolder });
    const { rows } = await reopened.query<{ name: string }>(`select name from technicians where name = 'Kept Across Restarts'`);
    expect(rows).toEqual([{ name: 'Kept Across Restarts' }]);
    await reopened.close();
  });
});
