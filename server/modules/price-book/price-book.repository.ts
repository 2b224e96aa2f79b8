import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PriceBookListQuery } from '#shared/price-book.ts';
import type { DbExecutor } from '#server/db/client.ts';
import { containsPattern } from '#server/db/like-pattern.ts';
import { invoiceLines, priceBookItems, quoteLines } from '#server/db/schema/index.ts';

export type PriceBookRow = typeof priceBookItems.$inferSelect;
export type PriceBookValues = Pick<PriceBookRow, 'kind' | 'code' | 'name' | 'description' | 'category' | 'unit' | 'priceCents' | 'costCents' | 'taxable' | 'active'>;

/** Exactly the expression of `price_book_items_search_trgm_idx`, so a search of 3+ characters uses it. */
const searchText = sql`lower(${priceBookItems.code} || ' ' || ${priceBookItems.name} || ' ' || ${priceBookItems.category} || ' ' || ${priceBookItems.description})`;

function listFilter(query: Pick<PriceBookListQuery, 'q' | 'kind' | 'category' | 'active'>): SQL | undefined {
  const rules: (SQL | undefined)[] = [];
  if (query.q) rules.push(sql`${searchText} like ${containsPattern(query.q.toLowerCase())}`);
  if (query.kind) rules.push(eq(priceBookItems.kind, query.kind));
  if (query.category !== undefined && query.category !== '') rules.push(eq(priceBookItems.category, query.category));
  if (query.active === 'active') rules.push(eq(priceBookItems.active, true));
  if (query.active === 'inactive') rules.push(eq(priceBookItems.active, false));
  return and(...rules);
}

function listOrder(query: Pick<PriceBookListQuery, 'sort' | 'dir'>): SQL[] {
  const direction = query.dir === 'desc' ? desc : asc;
  const byName = sql`lower(${priceBookItems.name})`;
  switch (query.sort) {
    case 'code':
      return [direction(sql`lower(${priceBookItems.code})`), asc(priceBookItems.id)];
    case 'category':
      return [direction(priceBookItems.category), asc(byName), asc(priceBookItems.id)];
    case 'price':
      return [direction(priceBookItems.priceCents), asc(byName), asc(priceBookItems.id)];
    case 'updated':
      return [direction(priceBookItems.updatedAt), asc(priceBookItems.id)];
    default:
      return [direction(byName), asc(priceBookItems.id)];
  }
}

export function createPriceBookRepository(db: DbExecutor) {
  return {
    /** One page and the filtered total (the price book is thousands of rows at most: offset pages). */
    async list(query: PriceBookListQuery): Promise<{ rows: PriceBookRow[]; total: number }> {
      const where = listFilter(query);
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(priceBookItems)
          .where(where)
          .orderBy(...listOrder(query))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: sql<number>`count(*)::int` }).from(priceBookItems).where(where),
      ]);
      return { rows, total: Number(count?.total ?? 0) };
    },

    /** The export: every row the filter keeps, in the list's order. */
    async listAll(query: Pick<PriceBookListQuery, 'q' | 'kind' | 'category' | 'active' | 'sort' | 'dir'>): Promise<PriceBookRow[]> {
      return db.select().from(priceBookItems).where(listFilter(query)).orderBy(...listOrder(query));
    },

    async categories(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ category: priceBookItems.category })
        .from(priceBookItems)
        .where(sql`${priceBookItems.category} <> ''`)
        .orderBy(asc(priceBookItems.category));
      return rows.map((row) => row.category);
    },

    async findById(id: string): Promise<PriceBookRow | undefined> {
      return (await db.select().from(priceBookItems).where(eq(priceBookItems.id, id)))[0];
    },

    async findByIds(ids: readonly string[]): Promise<PriceBookRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(priceBookItems).where(inArray(priceBookItems.id, [...ids]));
    },

    async lockById(id: string): Promise<PriceBookRow | undefined> {
      return (await db.select().from(priceBookItems).where(eq(priceBookItems.id, id)).for('update'))[0];
    },

    /** The items with these codes (any case), locked: an import's matches. */
    async lockByCodes(codes: readonly string[]): Promise<PriceBookRow[]> {
      if (codes.length === 0) return [];
      return db
        .select()
        .from(priceBookItems)
        .where(inArray(sql`lower(${priceBookItems.code})`, codes.map((code) => code.toLowerCase())))
        .for('update');
    },

    async insert(values: PriceBookValues): Promise<PriceBookRow> {
      return (await db.insert(priceBookItems).values(values).returning())[0]!;
    },

    async insertMany(values: PriceBookValues[]): Promise<PriceBookRow[]> {
      if (values.length === 0) return [];
      return db.insert(priceBookItems).values(values).returning();
    },

    async update(id: string, values: Partial<PriceBookValues>): Promise<PriceBookRow | undefined> {
      return (
        await db
          .update(priceBookItems)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(priceBookItems.id, id))
          .returning()
      )[0];
    },

    async remove(id: string): Promise<void> {
      await db.delete(priceBookItems).where(eq(priceBookItems.id, id));
    },

    /** Whether any quote or invoice line came from the item (then it is deactivated, never deleted). */
    async inUse(id: string): Promise<boolean> {
      const result = await db.execute<{ used: boolean }>(sql`
        select exists (select 1 from ${quoteLines} where ${quoteLines.priceBookItemId} = ${id})
            or exists (select 1 from ${invoiceLines} where ${invoiceLines.priceBookItemId} = ${id}) as used`);
      return result.rows[0]?.used === true;
    },
  };
}

export type PriceBookRepository = ReturnType<typeof createPriceBookRepository>;
