import { sql, type SQL } from 'drizzle-orm';

/**
 * Keyset paging for the CSV exports (decision 017-e): a page is the rows after the last one seen,
 * in (created_at, id) order. The cursor is created_at as text: a JavaScript Date would drop the
 * microseconds and with them rows that share a millisecond.
 */
export type KeysetCursor = { cursor: string; id: string };

/**
 * `(key, id) > (cursor)` ('<' for newest first), or undefined for the first page, to be joined with
 * other conditions. The key is created_at (a timestamptz) unless `keyType` says otherwise (the
 * payments export pages by the date received).
 */
export const keysetCondition = (key: SQL, id: SQL, cursor: KeysetCursor | undefined, direction: '>' | '<', keyType: 'timestamptz' | 'date' = 'timestamptz') =>
  cursor ? sql`(${key}, ${id}) ${sql.raw(direction)} (${cursor.cursor}::${sql.raw(keyType)}, ${cursor.id}::uuid)` : undefined;

/** `where (created, id) > (cursor)` ('<' for newest first), or nothing for the first page. */
export const keysetAfter = (created: SQL, id: SQL, cursor: KeysetCursor | undefined, direction: '>' | '<') => {
  const condition = keysetCondition(created, id, cursor, direction);
  return condition ? sql`where ${condition}` : sql``;
};

/** A timestamp as the company's wall clock, to the minute (spreadsheets read it as a date and time). */
export const localMinute = (column: SQL, timeZone: string) => sql`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD HH24:MI')`;
