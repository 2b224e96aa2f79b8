import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedStatements, isPreparable, type PreparedStatements } from '#server/db/pglite-prepared.ts';

/** Decision 020-i: named prepared statements on the embedded database (the PostgreSQL run has none). */
const embeddedOnly = describe.skipIf(Boolean(process.env.TEST_DATABASE_URL));

embeddedOnly('prepared statements on the embedded database', () => {
  let pg: PGlite;
  let prepared: PreparedStatements;
  const objects = { rowMode: 'object' } as const;

  beforeAll(async () => {
    pg = await PGlite.create();
    await pg.exec(`create table probe (id int primary key, label text not null, at timestamptz, tags text[], extra jsonb)`);
    prepared = createPreparedStatements(pg, { capacity: 3 });
  });
  afterAll(async () => {
    await pg.close();
  });

  it('answers exactly as PGlite query does, for every parameter type, and parses a text once', async () => {
    const insert = 'insert into probe (id, label, at, tags, extra) values ($1, $2, $3, $4, $5) returning *';
    const at = new Date('2026-11-25T15:00:00.000Z');
    const viaPrepared = await prepared.query(insert, [1, 'first', at, ['a', 'b'], { k: 1 }], objects, false);
    const viaQuery = await pg.query(insert, [2, 'first', at, ['a', 'b'], { k: 1 }], objects);
    expect({ ...viaPrepared.rows[0]!, id: 2 }).toEqual(viaQuery.rows[0]);
    expect(viaPrepared.fields).toEqual(viaQuery.fields);
    expect(viaPrepared.affectedRows).toBe(1);

    const select = 'select id, label from probe where label = $1 and at = $2 order by id';
    for (let run = 0; run < 8; run++) {
      expect((await prepared.query(select, ['first', at], { rowMode: 'array' }, false)).rows).toEqual([[1, 'first'], [2, 'first']]);
    }
    expect((await prepared.query(select, [null, null], objects, false)).rows).toEqual([]);
    // The insert and the select: each text prepared once, however often it ran.
    expect(prepared.size).toBe(2);
  });

  it('keeps working when a statement fails: same error, and the next statement runs', async () => {
    const insert = 'insert into probe (id, label) values ($1, $2)';
    await expect(prepared.query(insert, [1, 'duplicate'], objects, false)).rejects.toMatchObject({ code: '23505' });
    await expect(prepared.query('select no_such_column from probe where id = $1', [1], objects, false)).rejects.toMatchObject({ code: '42703' });
    await prepared.query(insert, [3, 'third'], objects, false);
    expect((await pg.query('select count(*)::int as n from probe')).rows).toEqual([{ n: 3 }]);
  });

  it('runs inside a transaction, whose rollback undoes its statements', async () => {
    await pg
      .transaction(async () => {
        await prepared.query('insert into probe (id, label) values ($1, $2)', [20, 'rolled back'], objects, true);
        throw new Error('the work failed');
      })
      .catch(() => undefined);
    expect((await prepared.query('select id from probe where id = $1', [20], objects, false)).rows).toEqual([]);
  });

  it('sees a table that changed shape since it was prepared', async () => {
    const select = 'select * from probe where id = $1';
    expect(Object.keys((await prepared.query<Record<string, unknown>>(select, [1], objects, false)).rows[0]!)).not.toContain('added');
    await pg.exec('alter table probe add column added text');
    expect(Object.keys((await prepared.query<Record<string, unknown>>(select, [1], objects, false)).rows[0]!)).toContain('added');
  });

  it('closes the least recently used statements beyond its capacity', async () => {
    for (let id = 100; id < 106; id++) await prepared.query(`select ${id} as n where $1::int > 0`, [1], objects, false);
    expect(prepared.size).toBe(3);
    const left = await pg.query<{ name: string }>(`select name from pg_prepared_statements where name like 'hvac_%' order by name`);
    expect(left.rows).toHaveLength(3);
  });

  it('prepares only statements that are planned', () => {
    expect(isPreparable('  SELECT 1')).toBe(true);
    expect(isPreparable('with x as (select 1) select * from x')).toBe(true);
    expect(isPreparable('update probe set label = $1')).toBe(true);
    expect(isPreparable('begin')).toBe(false);
    expect(isPreparable('create table t (id int)')).toBe(false);
    expect(isPreparable('listen changes')).toBe(false);
  });
});
