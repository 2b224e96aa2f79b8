import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '#server/db/client.ts';
import { customerMessageConsents, customers, workOrders } from '#server/db/schema/index.ts';

/**
 * What the messaging tests (messaging.test.ts, sms-inbound.test.ts) build their cases with: raw
 * rows, company-local instants, customers and work orders written straight to the database. The
 * getters are read at each call: the files open their app in beforeAll.
 */
export function messagingFixtures(options: {
  database: () => DatabaseHandle;
  timeZone: () => string;
  /** A new work order's service date and technician. */
  workOrderDefaults: () => { serviceDate: string; technicianId: string };
}) {
  const db = () => options.database().db;

  async function rows<T>(query: SQL): Promise<T[]> {
    return (await db().execute<T & Record<string, unknown>>(query)).rows as T[];
  }

  /** The instant of a company-local date and time. */
  async function localInstant(date: string, time: string): Promise<Date> {
    const [row] = await rows<{ at: Date | string }>(sql`select ((${date}::date + ${time}::time) at time zone ${options.timeZone()}) as at`);
    return new Date(row!.at);
  }

  let customerCount = 0;
  /** A customer (e-mail customerN@example.com unless given, phone (843) 271-2000+N unless given), opted in to texts if `texts`. */
  async function newCustomer(
    customer: { email?: string | null; phone?: string; texts?: boolean; name?: string } = {},
  ): Promise<{ id: string; name: string; email: string | null; number: string }> {
    customerCount += 1;
    const email = customer.email === undefined ? `customer${customerCount}@example.com` : customer.email;
    const phone = customer.phone ?? `(843) 271-${2000 + customerCount}`;
    const name = customer.name ?? `Dana${customerCount} Whitfield`;
    const [row] = await db()
      .insert(customers)
      .values({ name, phone, email, address: `${customerCount} Marsh Hen Lane`, city: 'Bluffton', state: 'SC' })
      .returning({ id: customers.id });
    if (customer.texts) await db().insert(customerMessageConsents).values({ customerId: row!.id, channel: 'sms', status: 'opted_in', source: 'form' });
    return { id: row!.id, name, email, number: `+1${phone.replace(/\D/g, '').slice(-10)}` };
  }

  /** An unscheduled work order of the customer, on the default service date and technician. */
  async function newWorkOrder(customerId: string, title = 'AC not cooling'): Promise<{ id: string; number: string; updatedAt: Date }> {
    const { serviceDate, technicianId } = options.workOrderDefaults();
    const [row] = await db()
      .insert(workOrders)
      .values({ customerId, title, serviceDate, technicianId })
      .returning({ id: workOrders.id, number: workOrders.workOrderNumber, updatedAt: workOrders.updatedAt });
    return { id: row!.id, number: row!.number!, updatedAt: row!.updatedAt };
  }

  return { rows, localInstant, newCustomer, newWorkOrder };
}
