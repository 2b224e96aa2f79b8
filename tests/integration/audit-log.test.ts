import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Database } from '#server/db/client.ts';
import { diffFields, recordAudit, systemActors } from '#server/modules/audit/audit.service.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

describe('the audit_log table', () => {
  it('takes new entries and keeps secrets out of them', async () => {
    await recordAudit(database.db, {
      actor: { id: '6d3e0f43-7c3a-4d0e-9f1a-3f0d1c2b4a51', name: 'Pat Staff' },
      entityType: 'staff',
      entityId: 'a-staff-id',
      action: 'password_reset',
      changes: { passwordHash: ['x', 'y'], active: [false, true] },
    });
    const rows = await database.query<{ actor_name: string; changes: unknown }>(`select actor_name, changes from audit_log where entity_id = 'a-staff-id'`);
    expect(rows).toEqual([{ actor_name: 'Pat Staff', changes: { active: [false, true] } }]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    await recordAudit(database.db, { actor: systemActors.websiteVisitor, entityType: 'lead', entityId: 'kept', action: 'created' });
    await expect(database.query(`update audit_log set actor_name = 'someone else' where entity_id = 'kept'`)).rejects.toThrow(/append-only/);
    await expect(database.query(`delete from audit_log where entity_id = 'kept'`)).rejects.toThrow(/append-only/);
    await expect(database.query(`truncate audit_log`)).rejects.toThrow(/append-only/);
    const rows = await database.query<{ actor_name: string }>(`select actor_name from audit_log where entity_id = 'kept'`);
    expect(rows).toEqual([{ actor_name: 'Website visitor' }]);
  });

  it('writes nothing when the change it belongs to rolls back', async () => {
    await expect(
      database.db.transaction(async (transaction) => {
        await recordAudit(transaction as unknown as Database, { actor: systemActors.system, entityType: 'customer', entityId: 'rolled-back', action: 'created' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.query(`select 1 from audit_log where entity_id = 'rolled-back'`)).toEqual([]);
  });
});

describe('diffFields', () => {
  it('lists only the fields that changed, as [before, after]', () => {
    const before = { id: '1', name: 'Ann', phone: '1', updatedAt: new Date(0), when: new Date('2026-01-01T00:00:00Z') };
    const after = { id: '1', name: 'Anne', phone: '1', updatedAt: new Date(5), when: new Date('2026-01-02T00:00:00Z') };
    expect(diffFields(before, after)).toEqual({ name: ['Ann', 'Anne'], when: ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z'] });
  });

  it('shows a created record as [null, value] and a deleted one as [value, null], set fields only', () => {
    expect(diffFields(undefined, { id: '1', name: 'Ann', email: null })).toEqual({ name: [null, 'Ann'] });
    expect(diffFields({ id: '1', name: 'Ann', email: null }, undefined)).toEqual({ name: ['Ann', null] });
  });

  it('never includes secret-looking fields, and honours only/omit', () => {
    expect(diffFields({ passwordHash: 'a', tokenHash: 'b', apiKey: 'c', name: 'x' }, { passwordHash: 'z', tokenHash: 'y', apiKey: 'd', name: 'y' })).toEqual({
      name: ['x', 'y'],
    });
    expect(diffFields({ a: 1, b: 1, c: 1 }, { a: 2, b: 2, c: 2 }, { only: ['a', 'b'], omit: ['b'] })).toEqual({ a: [1, 2] });
  });
});
