import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createDocumentLinkRepository } from '#server/modules/document-links/document-links.repository.ts';
import { createDocumentLinkService, hashLinkToken, invalidLinkMessage } from '#server/modules/document-links/index.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// Customer links to quotes and invoices (decision 024-c): only the token's hash is stored, and every
// link that does not open answers the same 404, whatever the reason.

let database: DatabaseHandle;
let clock = new Date('2026-11-27T12:00:00Z');
const versions = new Map<string, number>();
const currentVersion = async (id: string) => versions.get(id);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

function service() {
  return createDocumentLinkService({ repository: createDocumentLinkRepository(database.db), now: () => clock });
}

async function expectRefused(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toMatchObject({ code: 'NOT_FOUND', message: invalidLinkMessage });
}

describe('document links', () => {
  const invoiceId = '00000000-0000-4000-8000-000000000001';
  const otherInvoiceId = '00000000-0000-4000-8000-000000000002';

  it('opens its own document until it expires, storing only the hash', async () => {
    versions.set(invoiceId, 1);
    const links = service();
    const { token, expiresAt } = await links.create(database.db, { documentType: 'invoice', documentId: invoiceId, linkVersion: 1, validDays: 30 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.toISOString()).toBe('2026-12-27T12:00:00.000Z');

    const stored = await database.query<{ token_hash: string }>('select token_hash from document_links');
    expect(stored).toEqual([{ token_hash: hashLinkToken(token) }]);
    expect(JSON.stringify(stored)).not.toContain(token);

    await expect(links.open(token, 'invoice', currentVersion)).resolves.toMatchObject({ documentType: 'invoice', documentId: invoiceId });
    const opened = await database.query<{ last_opened_at: Date | null }>('select last_opened_at from document_links');
    expect(opened[0]!.last_opened_at).not.toBeNull();

    clock = new Date('2026-12-27T12:00:00Z');
    await expectRefused(links.open(token, 'invoice', currentVersion));
    clock = new Date('2026-11-27T12:00:00Z');
  });

  it('refuses a tampered, unknown, malformed or other-kind token the same way', async () => {
    versions.set(otherInvoiceId, 1);
    const links = service();
    const { token } = await links.create(database.db, { documentType: 'invoice', documentId: otherInvoiceId, linkVersion: 1, validDays: 30 });
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await expectRefused(links.open(tampered, 'invoice', currentVersion));
    await expectRefused(links.open('x'.repeat(43), 'invoice', currentVersion));
    await expectRefused(links.open(`${token}=`, 'invoice', currentVersion));
    await expectRefused(links.open("' or 1=1 --", 'invoice', currentVersion));
    await expectRefused(links.open(token, 'quote', currentVersion));
    await expect(links.open(token, 'invoice', currentVersion)).resolves.toMatchObject({ documentId: otherInvoiceId });
  });

  it('refuses every link sent before the document revoked them (its link version moved on)', async () => {
    const quoteId = '00000000-0000-4000-8000-000000000003';
    versions.set(quoteId, 1);
    const links = service();
    const { token } = await links.create(database.db, { documentType: 'quote', documentId: quoteId, linkVersion: 1, validDays: 30 });
    await expect(links.open(token, 'quote', currentVersion)).resolves.toMatchObject({ documentId: quoteId });
    versions.set(quoteId, 2);
    await expectRefused(links.open(token, 'quote', currentVersion));
    versions.delete(quoteId);
    await expectRefused(links.open(token, 'quote', currentVersion));
  });

  it('housekeeping removes expired links only', async () => {
    const links = service();
    const before = await database.query<{ count: number }>('select count(*)::int as count from document_links');
    await links.create(database.db, { documentType: 'invoice', documentId: invoiceId, linkVersion: 1, validDays: 1 });
    expect(await links.deleteExpired(new Date('2026-11-29T00:00:00Z'))).toBe(1);
    const after = await database.query<{ count: number }>('select count(*)::int as count from document_links');
    expect(after[0]!.count).toBe(before[0]!.count);
  });
});
