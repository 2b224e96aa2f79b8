import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { equipment } from '#server/db/schema/index.ts';
import { maintenancePlanVisits } from '#shared/maintenance-plans.ts';
import type { AgreementDetail } from '#shared/agreement.ts';
import { messagingFixtures } from '#tests/support/messaging.ts';
import { createStaff, createTestApp, signIn, testConfig, type TestContext } from '#tests/support/test-app.ts';

// Issue 22: maintenance agreements, driven by a clock the test moves (no sleeps).
let context: TestContext;
let clock = new Date();
let adminCookie: string;
let dispatcherCookie: string;

const { rows, localInstant, newCustomer } = messagingFixtures({
  database: () => context.database,
  timeZone: () => context.config.businessTimeZone,
  workOrderDefaults: () => ({ serviceDate: '2027-01-01', technicianId: '' }),
});

async function setDay(date: string, time = '12:00'): Promise<void> {
  clock = await localInstant(date, time);
}

/** A staff request; the test's clock moves years, so a session that ran out is signed in again first. */
async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as: 'admin' | 'dispatcher' = 'admin') {
  const send = () =>
    context.app.inject({ method, url, headers: { cookie: as === 'admin' ? adminCookie : dispatcherCookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const response = await send();
  if (response.statusCode !== 401) return response;
  if (as === 'admin') adminCookie = await signIn(context.app, 'admin@example.com');
  else dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
  return send();
}

async function sell(customerId: string, body: Record<string, unknown>): Promise<AgreementDetail> {
  const response = await api('POST', `/api/admin/customers/${customerId}/agreements`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().agreement;
}

async function detail(id: string): Promise<AgreementDetail> {
  const response = await api('GET', `/api/admin/agreements/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().agreement;
}

type WorkOrderFacts = { id: string; title: string; status: string; service_type: string; service_date: string; scheduled_date: unknown; equipment_id: string | null };
async function visitWorkOrders(agreementId: string): Promise<(WorkOrderFacts & { period: string; tasks: string[] })[]> {
  return rows(sql`select w.id, w.title, w.status, w.service_type, to_char(w.service_date, 'YYYY-MM-DD') as service_date, w.scheduled_date, w.equipment_id, v.period,
                         (select coalesce(json_agg(t.task_name order by t.created_at, t.id), '[]') from work_order_tasks t where t.work_order_id = w.id) as tasks
                  from maintenance_visits v join work_orders w on w.id = v.work_order_id where v.agreement_id = ${agreementId} order by v.due_from`);
}

async function addEquipment(customerId: string, type = 'Heat pump'): Promise<string> {
  const [row] = await context.database.db.insert(equipment).values({ customerId, equipmentType: type, brand: 'Trane' }).returning({ id: equipment.id });
  return row!.id;
}

beforeAll(async () => {
  context = await createTestApp({ now: () => clock });
  await setDay('2027-01-10');
  await createStaff(context.database, 'admin@example.com');
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  adminCookie = await signIn(context.app, 'admin@example.com');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
});

afterAll(async () => {
  await context?.close();
});

describe('a year of an agreement', () => {
  it('generates each season’s visit once, in its season, reminds before the end and renews into a second term', async () => {
    await setDay('2027-01-10');
    const customer = await newCustomer();
    const unit = await addEquipment(customer.id);
    const sold = await sell(customer.id, { planId: 'advanced', startDate: '2027-01-15', billing: 'monthly', equipmentIds: [unit], notes: 'Gate code 1234' });
    expect(sold).toMatchObject({
      planId: 'advanced',
      planName: 'Advanced',
      status: 'active',
      currentTermStartsOn: '2027-01-15',
      currentTermEndsOn: '2028-01-14',
      priceCents: 25_000,
      billing: 'monthly',
      autoRenew: true,
      equipmentIds: [unit],
      visits: [],
    });
    expect(sold.agreementNumber).toMatch(/^MA-\d+$/);

    // Spring opens on March 1; its visit is generated 30 days before, not earlier.
    await setDay('2027-01-29');
    await context.app.agreements.runDue();
    expect(await visitWorkOrders(sold.id)).toEqual([]);
    await setDay('2027-01-30');
    await context.app.agreements.runDue();
    await context.app.agreements.runDue();
    const spring = await visitWorkOrders(sold.id);
    expect(spring).toHaveLength(1);
    expect(spring[0]).toMatchObject({
      period: '2027-spring',
      title: 'Cooling tune-up (Advanced plan)',
      status: 'pending',
      service_type: 'maintenance',
      service_date: '2027-03-01',
      scheduled_date: null,
      equipment_id: unit,
      tasks: [...maintenancePlanVisits.advanced[0]!.checklist],
    });

    await setDay('2027-08-02');
    await context.app.agreements.runDue();
    const year = await visitWorkOrders(sold.id);
    expect(year.map((visit) => [visit.period, visit.title, visit.service_date])).toEqual([
      ['2027-spring', 'Cooling tune-up (Advanced plan)', '2027-03-01'],
      ['2027-fall', 'Heating tune-up (Advanced plan)', '2027-09-01'],
    ]);
    expect(year[1]!.tasks).toEqual([...maintenancePlanVisits.advanced[1]!.checklist]);

    // The renewal reminder: 30 days before the end, once.
    await setDay('2027-12-14');
    expect((await context.app.agreements.runDue()).reminded).toBe(0);
    await setDay('2027-12-15');
    expect((await context.app.agreements.runDue()).reminded).toBe(1);
    expect((await context.app.agreements.runDue()).reminded).toBe(0);
    const reminders = await rows<{ subject: string; text_body: string; recipients: string[] }>(
      sql`select subject, text_body, recipients from outbound_emails where related_id = ${sold.id} and kind = 'agreement_renewal_reminder'`,
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.recipients).toEqual([customer.email]);
    expect(reminders[0]!.subject).toBe('Your Advanced maintenance plan renews on 2028-01-14');
    expect(reminders[0]!.text_body).toContain('renews by itself on 2028-01-15 for $250.00 a year');

    // The term ends on 2028-01-14; on the 15th the next one begins, and its spring visit follows.
    await setDay('2028-01-14');
    expect((await context.app.agreements.runDue()).renewed).toBe(0);
    await setDay('2028-01-15');
    expect((await context.app.agreements.runDue()).renewed).toBe(1);
    expect((await context.app.agreements.runDue()).renewed).toBe(0);
    await setDay('2028-02-01');
    await context.app.agreements.runDue();
    const renewed = await detail(sold.id);
    expect(renewed).toMatchObject({ status: 'active', currentTermStartsOn: '2028-01-15', currentTermEndsOn: '2029-01-14' });
    expect(renewed.terms.map((term) => [term.number, term.startsOn, term.endsOn, term.priceCents])).toEqual([
      [1, '2027-01-15', '2028-01-14', 25_000],
      [2, '2028-01-15', '2029-01-14', 25_000],
    ]);
    expect(renewed.visits.map((visit) => visit.period)).toEqual(['2027-spring', '2027-fall', '2028-spring']);
    const audit = await rows<{ action: string }>(sql`select action from audit_log where entity_type = 'agreement' and entity_id = ${sold.id} order by occurred_at, id`);
    // Billed monthly: months 2 to 12 of the first term as each began (the office billed month 1 at
    // the sale), then the renewal's invoice, month 1 of the new term.
    expect(audit.map((entry) => entry.action)).toEqual(['created', ...Array.from({ length: 11 }, () => 'billed'), 'renewed']);
    const invoices = await rows<{ status: string; total_cents: number; notes: string; name: string }>(
      sql`select i.status, i.total_cents::int as total_cents, i.notes, l.name from invoices i join invoice_lines l on l.invoice_id = i.id
          where i.customer_id = ${customer.id} order by i.created_at, i.invoice_number`,
    );
    const firstTerm = `Maintenance agreement ${sold.agreementNumber}, term 1: 2027-01-15 to 2028-01-14. Billed monthly.`;
    expect(invoices).toEqual([
      ...Array.from({ length: 11 }, (_, index) => ({ status: 'draft', total_cents: 2_083, notes: firstTerm, name: `Advanced maintenance plan, month ${index + 2} of 12` })),
      { status: 'draft', total_cents: 2_083, notes: `Maintenance agreement ${sold.agreementNumber}, term 2: 2028-01-15 to 2029-01-14. Billed monthly.`, name: 'Advanced maintenance plan, month 1 of 12' },
    ]);
    const bills = await rows<{ term_number: number; month: number; has_invoice: boolean }>(
      sql`select term_number, month, invoice_id is not null as has_invoice from maintenance_agreement_bills where agreement_id = ${sold.id} order by term_number, month`,
    );
    expect(bills).toEqual(Array.from({ length: 11 }, (_, index) => ({ term_number: 1, month: index + 2, has_invoice: true })));
  });

  it('bills a monthly term month by month, once, across two instances at once; months before the sale was recorded are the office’s', async () => {
    // Recorded on 2027-05-20 with a term from 2027-03-01: months 2 (April 1) and 3 (May 1) began before.
    await setDay('2027-05-20');
    const customer = await newCustomer();
    const sold = await sell(customer.id, { planId: 'essential', startDate: '2027-03-01', billing: 'monthly' });
    expect((await context.app.agreements.billDue()).billed).toBe(0);
    await setDay('2027-06-01');
    const second = await buildApp({ config: testConfig(), database: context.database, logger: false, serveClient: false, now: () => clock });
    await second.ready();
    try {
      const [one, two] = await Promise.all([context.app.agreements.billDue(), second.agreements.billDue()]);
      expect(one.billed + two.billed).toBe(1);
      // Three months later the three that began are billed; a run again bills nothing.
      await setDay('2027-09-01');
      const [three, four] = await Promise.all([context.app.agreements.billDue(), second.agreements.billDue()]);
      expect(three.billed + four.billed).toBe(3);
    } finally {
      await second.close();
    }
    expect((await context.app.agreements.billDue()).billed).toBe(0);
    const names = await rows<{ name: string; total_cents: number }>(
      sql`select l.name, i.total_cents::int as total_cents from invoices i join invoice_lines l on l.invoice_id = i.id where i.customer_id = ${customer.id} order by l.name`,
    );
    expect(names.map((row) => row.name)).toEqual(['Essential maintenance plan, month 4 of 12', 'Essential maintenance plan, month 5 of 12', 'Essential maintenance plan, month 6 of 12', 'Essential maintenance plan, month 7 of 12']);
    expect(names.every((row) => row.total_cents === Math.round(sold.priceCents / 12))).toBe(true);
    // A deleted draft is not billed again: the month stays billed.
    await context.database.db.execute(sql`delete from invoices where customer_id = ${customer.id} and notes like ${`%${sold.agreementNumber}%`} and id = (select invoice_id from maintenance_agreement_bills where agreement_id = ${sold.id} and month = 7)`);
    expect((await context.app.agreements.billDue()).billed).toBe(0);
    // Cancelled: no more bills.
    const cancelled = await api('POST', `/api/admin/agreements/${sold.id}/cancel`, { reason: 'Moving away' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await setDay('2027-10-02');
    expect((await context.app.agreements.billDue()).billed).toBe(0);
  });

  it('an agreement that does not renew by itself is expiring in its last 30 days, then expired, and its open visit is cancelled', async () => {
    await setDay('2027-03-10');
    const customer = await newCustomer();
    const sold = await sell(customer.id, { planId: 'essential', startDate: '2027-03-10', autoRenew: false });
    expect(sold.visits.map((visit) => [visit.period, visit.dueFrom, visit.dueBy, visit.status])).toEqual([['2027-spring', '2027-03-10', '2027-05-31', 'pending']]);
    await setDay('2028-02-07');
    expect((await detail(sold.id)).status).toBe('active');
    await setDay('2028-02-08');
    await context.app.agreements.runDue();
    expect((await detail(sold.id)).status).toBe('expiring');
    const [reminder] = await rows<{ subject: string }>(sql`select subject from outbound_emails where related_id = ${sold.id}`);
    expect(reminder!.subject).toBe('Your Essential maintenance plan ends on 2028-03-09');
    // The 2028 spring visit is the next term's: an agreement that ends does not get it.
    await setDay('2028-03-10');
    expect(await context.app.agreements.runDue()).toMatchObject({ expired: 1, renewed: 0 });
    const ended = await detail(sold.id);
    expect(ended.status).toBe('expired');
    const [invoiceCount] = await rows<{ count: number }>(sql`select count(*)::int from invoices where customer_id = ${customer.id}`);
    expect(invoiceCount!.count).toBe(0);
    expect(ended.visits.map((visit) => visit.period)).toEqual(['2027-spring']);
  });
});

describe('restarts and several instances', () => {
  it('a second instance (or a restart) running at the same time generates no visit twice; a visit whose work order was deleted is not made again', async () => {
    await setDay('2027-08-05');
    const sold = [];
    for (let index = 0; index < 12; index += 1) {
      const customer = await newCustomer();
      sold.push(await sell(customer.id, { planId: 'premium', startDate: '2027-04-01' }));
    }
    // Selling generated each one's fall visit at once (the 2027 spring was over by the sale).
    for (const agreement of sold) expect(agreement.visits.map((visit) => visit.period)).toEqual(['2027-fall']);
    await context.database.db.execute(sql`delete from maintenance_visits where agreement_id in (${sql.join(sold.map((agreement) => sql`${agreement.id}::uuid`), sql`, `)}) and period = '2027-fall'`);
    await context.database.db.execute(sql`delete from work_orders where idempotency_key like 'agreement:%:2027-fall' and customer_id in (select customer_id from maintenance_agreements where id in (${sql.join(sold.map((agreement) => sql`${agreement.id}::uuid`), sql`, `)}))`);

    const second = await buildApp({ config: testConfig(), database: context.database, logger: false, serveClient: false, now: () => clock });
    await second.ready();
    try {
      const results = await Promise.all([context.app.agreements.generateDue(), second.agreements.generateDue(), context.app.agreements.generateDue()]);
      expect(results.reduce((sum, result) => sum + result.visits, 0)).toBeGreaterThanOrEqual(12);
    } finally {
      await second.close();
    }
    const counts = await rows<{ period: string; visits: number; work_orders: number }>(sql`
      select v.period, count(*)::int as visits, count(distinct v.work_order_id)::int as work_orders from maintenance_visits v
      where v.agreement_id in (${sql.join(sold.map((agreement) => sql`${agreement.id}::uuid`), sql`, `)}) group by v.period order by v.period`);
    expect(counts).toEqual([{ period: '2027-fall', visits: 12, work_orders: 12 }]);
    const [orders] = await rows<{ count: number }>(sql`select count(*)::int from work_orders where idempotency_key like 'agreement:%' and customer_id in
      (select customer_id from maintenance_agreements where id in (${sql.join(sold.map((agreement) => sql`${agreement.id}::uuid`), sql`, `)}))`);
    expect(orders!.count).toBe(12);

    // Staff delete one visit's work order: the period stays taken.
    const fall = (await visitWorkOrders(sold[0]!.id)).find((visit) => visit.period === '2027-fall')!;
    const [{ updated_at: version }] = (await rows<{ updated_at: string }>(sql`select updated_at from work_orders where id = ${fall.id}`)) as [{ updated_at: string }];
    const removed = await api('DELETE', `/api/admin/work-orders/${fall.id}?expectedUpdatedAt=${encodeURIComponent(new Date(version).toISOString())}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await context.app.agreements.generateDue();
    const after = await detail(sold[0]!.id);
    expect(after.visits.map((visit) => [visit.period, visit.workOrderId])).toEqual([['2027-fall', null]]);
  });
});

describe('cancellation and plan changes', () => {
  it('cancelling stops future visits: the open ones are cancelled, a completed one stays, none is generated after', async () => {
    await setDay('2027-02-01');
    const customer = await newCustomer();
    const sold = await sell(customer.id, { planId: 'advanced', startDate: '2027-02-01' });
    const [spring] = await visitWorkOrders(sold.id);
    await context.database.db.execute(sql`update work_orders set status = 'completed', completed_at = now() where id = ${spring!.id}`);
    await setDay('2027-08-05');
    await context.app.agreements.runDue();
    const fall = (await visitWorkOrders(sold.id)).find((visit) => visit.period === '2027-fall')!;
    expect(fall.status).toBe('pending');

    expect((await api('POST', `/api/admin/agreements/${sold.id}/cancel`, { reason: 'Moving away' }, 'dispatcher')).statusCode).toBe(403);
    const empty = await api('POST', `/api/admin/agreements/${sold.id}/cancel`, { reason: '  ' });
    expect(empty.statusCode).toBe(400);
    const cancelled = await api('POST', `/api/admin/agreements/${sold.id}/cancel`, { reason: 'Moving away' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().agreement).toMatchObject({ status: 'cancelled', cancellationReason: 'Moving away', autoRenew: false });
    expect((await api('POST', `/api/admin/agreements/${sold.id}/cancel`, { reason: 'Again' })).statusCode).toBe(409);
    expect((await visitWorkOrders(sold.id)).map((visit) => [visit.period, visit.status])).toEqual([
      ['2027-spring', 'completed'],
      ['2027-fall', 'cancelled'],
    ]);
    await setDay('2028-02-10');
    expect(await context.app.agreements.runDue()).toMatchObject({ renewed: 0, expired: 0 });
    expect((await detail(sold.id)).visits).toHaveLength(2);
    const [audit] = await rows<{ changes: Record<string, unknown> }>(sql`select changes from audit_log where entity_type = 'work_order' and entity_id = ${fall.id} and action = 'status_changed'`);
    expect(audit!.changes).toEqual({ status: ['pending', 'cancelled'] });
  });

  it('a plan changed mid-term: to one visit a year cancels the open fall visit; back to two generates it again at once', async () => {
    await setDay('2027-08-05');
    const customer = await newCustomer();
    const sold = await sell(customer.id, { planId: 'advanced', startDate: '2027-07-01' });
    expect(sold.visits.map((visit) => visit.period)).toEqual(['2027-fall']);
    const downgrade = await api('PUT', `/api/admin/agreements/${sold.id}`, { expectedUpdatedAt: sold.updatedAt, planId: 'essential' }, 'dispatcher');
    expect(downgrade.statusCode, downgrade.body).toBe(200);
    const essential: AgreementDetail = downgrade.json().agreement;
    expect(essential.planId).toBe('essential');
    expect(essential.visits.map((visit) => [visit.period, visit.status])).toEqual([['2027-fall', 'cancelled']]);
    // The term's price stays; the next term is at the new plan's.
    expect(essential.priceCents).toBe(25_000);
    const stale = await api('PUT', `/api/admin/agreements/${sold.id}`, { expectedUpdatedAt: sold.updatedAt, planId: 'premium' });
    expect(stale.statusCode).toBe(409);
    const upgrade = await api('PUT', `/api/admin/agreements/${sold.id}`, { expectedUpdatedAt: essential.updatedAt, planId: 'premium' });
    expect(upgrade.statusCode, upgrade.body).toBe(200);
    // The fall period is taken by the cancelled visit: an upgrade does not bring it back (decision 027-b).
    expect(upgrade.json().agreement.visits.map((visit: { period: string; status: string }) => [visit.period, visit.status])).toEqual([['2027-fall', 'cancelled']]);
    // The next spring follows the new plan's checklist.
    await setDay('2028-02-01');
    await context.app.agreements.runDue();
    const spring = (await visitWorkOrders(sold.id)).find((visit) => visit.period === '2028-spring')!;
    expect(spring.title).toBe('Cooling tune-up (Premium plan)');
    const actions = await rows<{ action: string }>(sql`select action from audit_log where entity_type = 'agreement' and entity_id = ${sold.id} order by occurred_at, id`);
    expect(actions.map((entry) => entry.action)).toEqual(['created', 'plan_changed', 'plan_changed']);
  });
});

describe('Visits due and the figures', () => {
  it('lists the unscheduled visits whose season covers the month, by plan and area, and counts the dashboard’s figures', async () => {
    await setDay('2029-02-10');
    const inBluffton = await newCustomer({ name: 'Avery Bluffton' });
    const onTheIsland = await newCustomer({ name: 'Blake Island' });
    await context.database.db.execute(sql`update customers set zip = '29910' where id = ${inBluffton.id}`);
    await context.database.db.execute(sql`update customers set zip = '29928', city = 'Hilton Head Island' where id = ${onTheIsland.id}`);
    const one = await sell(inBluffton.id, { planId: 'premium', startDate: '2029-02-10' });
    const two = await sell(onTheIsland.id, { planId: 'essential', startDate: '2029-02-10', billing: 'monthly' });
    const march = async (query: string) => {
      const response = await api('GET', `/api/admin/agreements/visits-due?month=2029-03${query}`, undefined, 'dispatcher');
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { total: number; visits: { agreementNumber: string; customerName: string; zip: string; planName: string }[] };
    };
    const all = await march('');
    expect(all.visits.map((visit) => visit.agreementNumber)).toEqual([one.agreementNumber, two.agreementNumber]);
    expect((await march('&plan=essential')).visits.map((visit) => visit.customerName)).toEqual(['Blake Island']);
    expect((await march('&area=hilton-head-island')).visits.map((visit) => visit.customerName)).toEqual(['Blake Island']);
    expect((await march('&area=bluffton')).visits.map((visit) => visit.customerName)).toEqual(['Avery Bluffton']);
    const june = await api('GET', '/api/admin/agreements/visits-due?month=2029-06', undefined, 'dispatcher');
    expect(june.json().total).toBe(0);

    // Scheduled, it leaves the default list and stays in "all".
    const firstVisit = (await visitWorkOrders(one.id))[0]!;
    const [{ updated_at: updatedAt }] = (await rows<{ updated_at: string }>(sql`select updated_at from work_orders where id = ${firstVisit.id}`)) as [{ updated_at: string }];
    const scheduled = await api('POST', `/api/admin/work-orders/${firstVisit.id}/schedule`, {
      date: '2029-03-05',
      startTime: '09:00',
      durationHours: 2,
      expectedUpdatedAt: new Date(updatedAt).toISOString(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    // On the calendar, a member's visit is marked (priority service).
    const calendar = await api('GET', '/api/admin/calendar/events?start=2029-03-05&end=2029-03-06', undefined, 'dispatcher');
    expect(calendar.json().events.map((event: { id: string; isMember: boolean }) => [event.id, event.isMember])).toEqual([[firstVisit.id, true]]);
    expect((await march('')).visits.map((visit) => visit.agreementNumber)).toEqual([two.agreementNumber]);
    expect((await march('&include=all')).total).toBe(2);

    const summary = await api('GET', '/api/admin/agreements/summary', undefined, 'dispatcher');
    expect(summary.statusCode).toBe(200);
    const figures = summary.json();
    // Agreements of the earlier tests that are still active count too: compare with the database.
    const [expected] = await rows<{ active: number; monthly: number }>(
      sql`select count(*)::int as active, coalesce(sum(round(price_cents::numeric / 12)), 0)::int as monthly from maintenance_agreements where status = 'active'`,
    );
    expect(figures).toMatchObject({ active: expected!.active, recurringRevenueCentsPerMonth: expected!.monthly });
    expect(figures.recurringRevenueCentsPerMonth).toBeGreaterThanOrEqual(Math.round(35_000 / 12) + Math.round(15_000 / 12));
  });

  it('refuses what does not fit: another customer’s equipment, an unknown customer or agreement, a bad month or plan', async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const foreign = await addEquipment(other.id);
    const refused = await api('POST', `/api/admin/customers/${customer.id}/agreements`, { planId: 'advanced', startDate: '2029-02-10', equipmentIds: [foreign] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual([{ path: 'equipmentIds', message: 'Choose equipment of this customer.' }]);
    expect((await api('POST', `/api/admin/customers/${customer.id}/agreements`, { planId: 'gold', startDate: '2029-02-10' })).statusCode).toBe(400);
    expect((await api('POST', `/api/admin/customers/${customer.id}/agreements`, { planId: 'advanced', startDate: '2029-02-30' })).statusCode).toBe(400);
    expect((await api('POST', '/api/admin/customers/00000000-0000-4000-8000-000000000000/agreements', { planId: 'advanced', startDate: '2029-02-10' })).statusCode).toBe(404);
    expect((await api('GET', '/api/admin/customers/not-an-id/agreements')).statusCode).toBe(404);
    expect((await api('GET', '/api/admin/agreements/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await api('GET', '/api/admin/agreements/visits-due?month=2029-13')).statusCode).toBe(400);
    expect((await api('GET', '/api/admin/agreements/visits-due?plan=gold')).statusCode).toBe(400);
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/agreements/summary' })).statusCode).toBe(401);
    const [count] = await rows<{ count: number }>(sql`select count(*)::int from maintenance_agreements where customer_id = ${customer.id}`);
    expect(count!.count).toBe(0);
  });

  it('a member’s repair invoice gets the plan’s discount on each priced line; a customer without an active plan does not', async () => {
    await setDay('2029-06-01');
    const member = await newCustomer();
    const other = await newCustomer();
    await sell(member.id, { planId: 'advanced', startDate: '2029-06-01' });
    const cancelled = await sell(other.id, { planId: 'premium', startDate: '2029-06-01' });
    expect((await api('POST', `/api/admin/agreements/${cancelled.id}/cancel`, { reason: 'Changed their mind' })).statusCode).toBe(200);
    const code = `CAP-${Date.now().toString(36)}`;
    await context.database.query(`insert into price_book_items (kind, code, name, price_cents, taxable) values ('part', $1, $2, 18500, false)`, [code, `Capacitor ${code}`]);
    const invoiceFor = async (customerId: string) => {
      const [order] = await context.database.query<{ id: string }>(
        `insert into work_orders (customer_id, title, service_date, status, service_type, completed_at) values ($1, 'AC not cooling', '2029-06-10', 'completed', 'repair', now()) returning id`,
        [customerId],
      );
      await context.database.query(
        `insert into visit_completions (work_order_id, summary, materials, completed_by_name, completed_at) values ($1, 'Replaced the capacitor', $2::jsonb, 'Terry Tech', now())`,
        [order!.id, JSON.stringify([{ description: `Capacitor ${code}`, quantity: 1 }])],
      );
      const response = await api('POST', `/api/admin/work-orders/${order!.id}/invoice`, undefined, 'dispatcher');
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { invoice: { notes: string; totalCents: number }; lines: { kind: string; unitPriceCents: number; discountBps: number }[] };
    };
    const discounted = await invoiceFor(member.id);
    expect(discounted.lines.map((line) => [line.kind, line.unitPriceCents, line.discountBps])).toEqual([
      ['service', 0, 0],
      ['part', 18_500, 1_500],
    ]);
    expect(discounted.invoice.totalCents).toBe(15_725);
    expect(discounted.invoice.notes).toContain('Advanced plan member');
    const full = await invoiceFor(other.id);
    expect(full.lines.map((line) => line.discountBps)).toEqual([0, 0]);
    expect(full.invoice.totalCents).toBe(18_500);
  });
});
