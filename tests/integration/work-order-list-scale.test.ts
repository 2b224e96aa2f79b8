import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkOrderListResponse } from '#shared/work-order.ts';
import { searchCommonCount, searchCommonSpread, searchCountCap, searchRecentWindow } from '#server/modules/work-orders/work-order.repository.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The list's totals and search at sizes where the shortcuts matter: the kept per-status counts,
// the capped search count, and a common word's page read from the newest work orders.

let context: TestContext;
let cookie: string;
let customerId: string;

async function list(query: string): Promise<WorkOrderListResponse> {
  const response = await context.app.inject({ method: 'GET', url: `/api/admin/work-orders?${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The same page computed the slow, obvious way. */
async function expectedPage(pattern: string, page: number, pageSize: number): Promise<string[]> {
  const rows = await context.database.query<{ id: string }>(
    `select w.id from work_orders w join customers c on c.id = w.customer_id
      where w.title ilike $1 or w.description ilike $1 or w.work_order_number ilike $1 or c.name ilike $1 or c.phone ilike $1
      order by w.service_date desc, w.created_at desc, w.id desc limit $2 offset $3`,
    [`%${pattern}%`, pageSize, (page - 1) * pageSize],
  );
  return rows.map((row) => row.id);
}

/** Inserts `count` work orders in one statement, service dates counting back from `newestDate`. */
async function insertWorkOrders(count: number, title: string, newestDate: string, status = 'pending'): Promise<void> {
  await context.database.query(
    `insert into work_orders (customer_id, title, description, service_date, status)
     select $1, $2 || ' ' || n, 'bulk', $3::date - (n % 300), $5 from generate_series(1, $4) as n`,
    [customerId, title, newestDate, count, status],
  );
}

async function countsMatchTheTable(): Promise<void> {
  const kept = await context.database.query<{ status: string; count: string }>('select status, count from work_order_status_counts where count <> 0 order by status');
  const actual = await context.database.query<{ status: string; count: string }>('select status, count(*) as count from work_orders group by status order by status');
  expect(kept.map((row) => [row.status, Number(row.count)])).toEqual(actual.map((row) => [row.status, Number(row.count)]));
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const [customer] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address) values ('Scale Customer', '(843) 555-0420', '1 Scale Rd') returning id`,
  );
  customerId = customer!.id;
  // More matches of a common word than the count cap, all older than a window's worth of others.
  await insertWorkOrders(searchCountCap + 200, 'Frobnicate tune-up', '2020-12-31');
  await insertWorkOrders(searchRecentWindow + 100, 'Ordinary visit', '2026-12-31', 'scheduled');
});
afterAll(() => context?.close());

describe('totals', () => {
  it('are the kept counts, exact per status and in all', async () => {
    await countsMatchTheTable();
    expect((await list('')).total).toBe(searchCountCap + 200 + searchRecentWindow + 100);
    expect((await list('status=scheduled')).total).toBe(searchRecentWindow + 100);
    expect((await list('status=completed')).total).toBe(0);
  });

  it('follow inserts, status changes, deletes, and ignore a rolled-back transaction', async () => {
    // Full pages: their totals are kept per snapshot (decision 026-a), read here before the changes.
    const before = { all: (await list('')).total, scheduled: (await list('status=scheduled')).total };
    await context.database.query(`update work_orders set status = 'completed' where title like 'Frobnicate tune-up 1_'`);
    await context.database.query(`update work_orders set description = 'touched' where title like 'Ordinary visit 2_'`);
    const deleted = (await context.database.query(`delete from work_orders where title like 'Ordinary visit 3_' returning id`)).length;
    await expect(
      context.database.query(`do $$ begin update work_orders set status = 'cancelled'; raise exception 'roll back'; end $$`),
    ).rejects.toThrow('roll back');
    await countsMatchTheTable();
    // 'Ordinary visit 30' to '39', all scheduled.
    expect(deleted).toBe(10);
    expect(await list('')).toMatchObject({ total: before.all - deleted });
    expect(await list('status=scheduled')).toMatchObject({ total: before.scheduled - deleted });
    await context.database.query(`insert into work_orders (customer_id, title, service_date, status) values ($1, 'One more', '2026-06-01', 'scheduled')`, [customerId]);
    expect(await list('status=scheduled')).toMatchObject({ total: before.scheduled - deleted + 1 });
    const [completed] = await context.database.query<{ count: number }>(`select count(*)::int as count from work_orders where status = 'completed'`);
    expect((await list('status=completed')).total).toBe(completed!.count);
    await context.database.query(`update work_orders set status = 'pending' where status = 'completed'`);
    await countsMatchTheTable();
  });
});

describe('search', () => {
  it('counts a common word up to the cap and says there are more', async () => {
    const body = await list('search=frobnicate');
    expect(body).toMatchObject({ total: searchCountCap, totalCapped: true });
    expect(body.workOrders.map((order) => order.id)).toEqual(await expectedPage('frobnicate', 1, 25));
  });

  it("reads a common word's page from the newest work orders when they hold it, and pages on", async () => {
    await insertWorkOrders(40, 'Recent frobnicate check', '2027-06-30');
    expect((await list('search=frobnicate')).workOrders.map((order) => order.id)).toEqual(await expectedPage('frobnicate', 1, 25));
    expect((await list('search=frobnicate&page=2')).workOrders.map((order) => order.id)).toEqual(await expectedPage('frobnicate', 2, 25));
    expect((await list('search=frobnicate&page=3')).workOrders.map((order) => order.id)).toEqual(await expectedPage('frobnicate', 3, 25));
  });

  it('counts a rarer word exactly, including matches on the customer', async () => {
    const body = await list('search=ordinary visit 10');
    const expected = await expectedPage('ordinary visit 10', 1, searchCountCap);
    expect(body).toMatchObject({ total: expected.length, totalCapped: false });
    expect(body.workOrders.map((order) => order.id)).toEqual(expected.slice(0, 25));
    const byCustomer = await list('search=scale customer&pageSize=10');
    expect(byCustomer).toMatchObject({ total: searchCountCap, totalCapped: true });
    expect(byCustomer.workOrders.map((order) => order.id)).toEqual(await expectedPage('scale customer', 1, 10));
  });
});

describe('a common word (decision 024-b)', () => {
  // The planner's size of the table (pg_class.relpages) is known after an analyze, as on a served
  // database (the seed analyzes; the maintenance task every few hours). Before it, every word is
  // counted as above.
  beforeAll(async () => {
    await insertWorkOrders(2_000, 'Filler visit', '2026-06-30', 'scheduled');
    await context.database.query('analyze work_order_search');
    const [table] = await context.database.query<{ pages: number }>(`select relpages as pages from pg_class where oid = 'work_order_search'::regclass`);
    // 'frobnicate' fills the table's first pages: its first matches lie well inside its first twentieth.
    expect(table!.pages).toBeGreaterThan(searchCommonSpread * 4);
  });

  it('is counted to 101 and says "100+", with the same rows in the same order', async () => {
    for (const page of [1, 2, 3]) {
      const body = await list(`search=frobnicate&page=${page}`);
      expect(body, `page ${page}`).toMatchObject({ total: searchCommonCount, totalCapped: true });
      expect(body.workOrders.map((order) => order.id), `page ${page}`).toEqual(await expectedPage('frobnicate', page, 25));
    }
    const byCustomer = await list('search=scale customer&pageSize=10');
    expect(byCustomer).toMatchObject({ total: searchCommonCount, totalCapped: true });
    expect(byCustomer.workOrders.map((order) => order.id)).toEqual(await expectedPage('scale customer', 1, 10));
  });

  it('pages on past the newest work orders, and its total grows with the rows shown', async () => {
    const [all] = await context.database.query<{ count: number }>(`select count(*)::int as count from work_orders where title ilike '%frobnicate%'`);
    const lastPage = Math.ceil(all!.count / 25);
    const last = await list(`search=frobnicate&page=${lastPage}`);
    const expected = await expectedPage('frobnicate', lastPage, 25);
    expect(expected.length).toBeGreaterThan(0);
    expect(last.workOrders.map((order) => order.id)).toEqual(expected);
    // Every match up to this page's end has been shown: the lower bound is the exact count here.
    expect(last).toMatchObject({ total: all!.count, totalCapped: true });
    const beyond = await list(`search=frobnicate&page=${lastPage + 1}`);
    expect(beyond.workOrders).toEqual([]);
    expect(beyond).toMatchObject({ total: searchCommonCount, totalCapped: true });
  });

  it('is a word whose first matches are spread through the table, not one that merely has many', async () => {
    // 'ordinary visit' has over a thousand matches, all after the 'frobnicate' rows: counted to the cap, as before.
    const ordinary = await list('search=ordinary visit');
    expect(ordinary).toMatchObject({ total: searchCountCap, totalCapped: true });
    expect(ordinary.workOrders.map((order) => order.id)).toEqual(await expectedPage('ordinary visit', 1, 25));
    // A rarer word is counted exactly.
    const rare = await list('search=ordinary visit 10');
    const expected = await expectedPage('ordinary visit 10', 1, searchCountCap);
    expect(rare).toMatchObject({ total: expected.length, totalCapped: false });
    expect(rare.workOrders.map((order) => order.id)).toEqual(expected.slice(0, 25));
  });

  it('is answered again after any commit: a kept answer never hides a change (decision 026-b, addendum 3)', async () => {
    const before = await list('search=kept answer check');
    expect(before).toMatchObject({ total: 0, workOrders: [] });
    // The same search while nothing commits: the same answer.
    expect(await list('search=kept answer check')).toEqual(before);
    await context.database.query(`insert into work_orders (customer_id, title, service_date) values ($1, 'Kept answer check', '2026-06-02')`, [customerId]);
    const after = await list('search=kept answer check');
    expect(after).toMatchObject({ total: 1, totalCapped: false });
    expect(after.workOrders.map((order) => order.title)).toEqual(['Kept answer check']);
    // Another status is its own answer.
    expect(await list('search=kept answer check&status=completed')).toMatchObject({ total: 0 });
    await context.database.query(`update work_orders set title = 'Kept answer gone' where title = 'Kept answer check'`);
    expect(await list('search=kept answer check')).toMatchObject({ total: 0, workOrders: [] });
  });
});
