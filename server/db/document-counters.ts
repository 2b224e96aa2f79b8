import { sql } from 'drizzle-orm';
import type { DocumentCounterKind } from '#shared/enums.ts';
import type { DbExecutor } from './client.ts';
import { documentCounters } from './schema/index.ts';

/**
 * The next gapless number of a kind of document (invoice, credit note, quote; decision 024-c): the
 * counter's row stays locked until the issuing transaction ends, so concurrent issuers queue and
 * a rollback gives the number back.
 */
export async function nextDocumentNumber(db: DbExecutor, kind: DocumentCounterKind): Promise<number> {
  const result = await db
    .insert(documentCounters)
    .values({ kind, nextNumber: 2 })
    .onConflictDoUpdate({ target: documentCounters.kind, set: { nextNumber: sql`${documentCounters.nextNumber} + 1` } })
    .returning({ number: sql<number>`${documentCounters.nextNumber} - 1`.mapWith(Number) });
  return result[0]!.number;
}
