import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// customer_work_order_counts (migration 0023, decision 020-h) is what the service map reads for each
// customer's work orders: after every kind of write it must equal counting the work orders.

let database: DatabaseHandle;
let customers: string[];

/** The kept counts and the counted ones, customers without work orders left out (a kept row may be zeros). */
async function expectCountsMatchTheTable(): Promise<void> {
  const kept = await database.query<{ customer_id: string; total: number; active: number }>(
    'select customer_id, total, active from customer_work_order_counts where total <> 0 or active <> 0 order by customer_id',
  );
  const counted = await database.query<{ customer_id: string; total: number; active: number }>(
    `select customer_id, count(*)::int as total, (count(*) filter (where status in ('pending', 'scheduled', 'in-progress')))::int as active
       from work_orders group by customer_id order by customer_id`,
  );
  expect(kept).toEqual(counted);
}

const countsOf = async (customerId: string) =>
  (await database.query<{ total: number; active: number }>('select total, active from customer_work_order_counts where customer_id = $1', [customerId]))[0];

beforeAll(async () => {
  database = await createTestDatabase();
  const rows = await database.query<{ id: string }>(
    `insert into customers (name, phone, address) select 'Counted ' || n, '(843) 555-01' || lpad(n::text, 2, '0'), n || ' Count St'
       from generate_series(1, 4) as n returning id`,
  );
  customers = rows.map((row) => row.id);
});
afterAll(() => database?.close());

describe('the kept per-customer work-order counts', () => {
  it('follow a bulk insert, in all and in the active statuses', async () => {
    await database.query(
      `insert into work_orders (customer_id, title, service_date, status)
       select ($1::uuid[])[1 + n % 3], 'Counted job ' || n, date '2026-01-01' + n,
              (array['pending', 'scheduled', 'in-progress', 'completed', 'cancelled'])[1 + n % 5]
         from generate_series(1, 30) as n`,
      [customers],
    );
    await expectCountsMatchTheTable();
    expect(await countsOf(customers[3]!)).toBeUndefined();
    const first = await countsOf(customers[0]!);
    expect(first).toEqual({ total: 10, active: 6 });
  });

  it('follow status changes, in and out of the active statuses, and updates that change nothing counted', async () => {
    await database.query(`update work_orders set status = 'completed' where status = 'pending'`);
    await expectCountsMatchTheTable();
    await database.query(`update work_orders set status = 'scheduled' where status = 'cancelled'`);
    await expectCountsMatchTheTable();
    await database.query(`update work_orders set title = title || ' (edited)'`);
    await expectCountsMatchTheTable();
  });

  it('follow a work order moved to another customer, one without work orders so far', async () => {
    await database.query(`update work_orders set customer_id = $1 where customer_id = $2 and status = 'scheduled'`, [customers[3], customers[1]]);
    await expectCountsMatchTheTable();
    expect((await countsOf(customers[3]!))!.active).toBeGreaterThan(0);
  });

  it('follow deletes, down to zero, and the customer can then be deleted with its row', async () => {
    await database.query('delete from work_orders where customer_id = $1', [customers[3]]);
    await expectCountsMatchTheTable();
    expect(await countsOf(customers[3]!)).toEqual({ total: 0, active: 0 });
    await database.query('delete from customers where id = $1', [customers[3]]);
    expect(await countsOf(customers[3]!)).toBeUndefined();
    await database.query('delete from work_orders where status = $1', ['completed']);
    await expectCountsMatchTheTable();
  });
});
