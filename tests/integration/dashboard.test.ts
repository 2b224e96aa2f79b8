import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardResponseSchema, emptyDashboard, type DashboardResponse } from '#shared/dashboard.ts';
import type { WorkOrderStatus } from '#shared/enums.ts';
import { createDashboardService } from '#server/modules/dashboard/dashboard.service.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The dashboard's figures against a known data set, in the company's time zone (New York: EST
// until 8 March 2026, EDT after). The service is read with a fixed clock, so every edge (midnight,
// the month's first and last instant, the 7-day window) is exact; the route is read with the real
// clock for what does not depend on it.

const timeZone = 'America/New_York';
let context: TestContext;
let cookie: string;

beforeAll(async () => {
  context = await createTestApp({ env: { TZ_BUSINESS: timeZone } });
  await createStaff(context.database);
  cookie = await signIn(context.app);
});
afterAll(() => context?.close());

const get = (signedIn = true) => context.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: signedIn ? { cookie } : {} });

/** The dashboard as it reads at `instant` (an ISO instant). */
function dashboardAt(instant: string): Promise<DashboardResponse> {
  return createDashboardService({ db: context.database.db, timeZone, now: () => new Date(instant) }).summary();
}

const titles = (list: { title: string }[]) => list.map((workOrder) => workOrder.title);

// Factories: rows straight into the tables, with the timestamps a case needs.

let customerCount = 0;
async function customer(name: string): Promise<string> {
  customerCount += 1;
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address) values ($1, $2, $3) returning id`,
    [name, `(843) 555-01${String(customerCount).padStart(2, '0')}`, `${customerCount} Palmetto Bay Rd`],
  );
  return row!.id;
}

let workOrderCount = 0;
async function workOrder(
  customerId: string,
  values: {
    title: string;
    serviceDate: string;
    status: WorkOrderStatus;
    timePreference?: 'morning' | 'afternoon' | 'anytime';
    startTime?: string;
    completedAt?: string;
  },
): Promise<void> {
  workOrderCount += 1;
  // created_at in insertion order, one minute apart: the lists' last sort key.
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, workOrderCount)).toISOString();
  await context.database.query(
    `insert into work_orders (customer_id, title, service_date, status, time_preference, scheduled_start_time, completed_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [customerId, values.title, values.serviceDate, values.status, values.timePreference ?? 'anytime', values.startTime ?? null, values.completedAt ?? null, createdAt],
  );
}

async function lead(values: { name: string; status: string; priority: 'urgent' | 'normal'; createdAt: string }): Promise<void> {
  await context.database.query(
    `insert into estimate_requests (name, email, phone, address, service_type, status, priority, created_at)
     values ($1, 'lead@example.com', '(843) 555-0150', '1 Lead Ln', 'ac-repair', $2, $3, $4)`,
    [values.name, values.status, values.priority, values.createdAt],
  );
}

async function chat(conversationId: string, createdAt: string): Promise<void> {
  await context.database.query(
    `insert into ai_conversations (conversation_id, user_message, ai_response, intent, created_at) values ($1, 'Hi', 'Hello!', 'general_inquiry', $2)`,
    [conversationId, createdAt],
  );
}

describe('access', () => {
  it('answers 401 without a session', async () => {
    const response = await get(false);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });
});

describe('an empty database', () => {
  it('shows zeros, empty lists and conversion rates of 0 (nothing to divide by)', async () => {
    const response = await get();
    expect(response.statusCode, response.body).toBe(200);
    const body = dashboardResponseSchema.parse(response.json());
    expect(body).toEqual({ ...emptyDashboard, today: body.today });
  });
});

describe('the figures of a known data set', () => {
  // Tuesday 10 March 2026, 10:00 in New York (EDT, UTC-4). Today's midnight is 04:00Z; the weekly
  // window starts Wednesday 4 March at midnight EST (05:00Z); March starts 1 March 05:00Z.
  const tuesdayMorning = '2026-03-10T14:00:00Z';

  beforeAll(async () => {
    const ann = await customer('Ann Ashley');
    const ben = await customer('Ben Brooks');
    const cy = await customer('Cy Carter');

    // Today (10 March): 7 work orders, in every time preference; the list shows the first 5.
    await workOrder(ann, { title: 'T anytime pending', serviceDate: '2026-03-10', status: 'pending', timePreference: 'anytime' });
    await workOrder(ann, { title: 'T morning 08:00', serviceDate: '2026-03-10', status: 'scheduled', timePreference: 'morning', startTime: '08:00' });
    await workOrder(ben, { title: 'T morning unscheduled', serviceDate: '2026-03-10', status: 'pending', timePreference: 'morning' });
    await workOrder(ben, { title: 'T morning 10:00', serviceDate: '2026-03-10', status: 'in-progress', timePreference: 'morning', startTime: '10:00' });
    await workOrder(cy, { title: 'T afternoon 13:00', serviceDate: '2026-03-10', status: 'scheduled', timePreference: 'afternoon', startTime: '13:00' });
    await workOrder(cy, {
      title: 'T afternoon completed',
      serviceDate: '2026-03-10',
      status: 'completed',
      timePreference: 'afternoon',
      completedAt: '2026-03-10T19:00:00Z',
    });
    await workOrder(cy, { title: 'T anytime cancelled', serviceDate: '2026-03-10', status: 'cancelled', timePreference: 'anytime' });

    // In progress on earlier days: with 'T morning 10:00', 7 in progress; the first 5 by service date.
    for (const day of ['06', '02', '05', '01', '04', '03']) {
      await workOrder(ann, { title: `In progress 03-${day}`, serviceDate: `2026-03-${day}`, status: 'in-progress' });
    }

    // Pending on other days: with today's two, 6 pending; by service date then creation.
    await workOrder(ben, { title: 'Pending 04-02', serviceDate: '2026-04-02', status: 'pending' });
    await workOrder(ben, { title: 'Pending 03-11', serviceDate: '2026-03-11', status: 'pending' });
    await workOrder(ben, { title: 'Pending 03-09', serviceDate: '2026-03-09', status: 'pending' });
    await workOrder(ben, { title: 'Pending 02-28', serviceDate: '2026-02-28', status: 'pending' });

    // Completed around the month's edges (in company time).
    await workOrder(cy, { title: 'Completed March first instant', serviceDate: '2026-02-28', status: 'completed', completedAt: '2026-03-01T05:00:00Z' });
    await workOrder(cy, { title: 'Completed February last instant', serviceDate: '2026-02-28', status: 'completed', completedAt: '2026-03-01T04:59:59.999Z' });
    await workOrder(cy, { title: 'Completed March last instant', serviceDate: '2026-03-31', status: 'completed', completedAt: '2026-04-01T03:59:59.999Z' });
    await workOrder(cy, { title: 'Completed April first instant', serviceDate: '2026-04-01', status: 'completed', completedAt: '2026-04-01T04:00:00Z' });

    // Leads around the weekly window (4 March 00:00 EST to 10 March 23:59:59.999 EDT).
    await lead({ name: 'L1 pending urgent, window start', status: 'pending', priority: 'urgent', createdAt: '2026-03-04T05:00:00Z' });
    await lead({ name: 'L2 pending, just before the window', status: 'pending', priority: 'normal', createdAt: '2026-03-04T04:59:59.999Z' });
    await lead({ name: 'L3 contacted urgent, last instant of today', status: 'contacted', priority: 'urgent', createdAt: '2026-03-11T03:59:59.999Z' });
    await lead({ name: 'L4 quoted urgent, in the window', status: 'quoted', priority: 'urgent', createdAt: '2026-03-06T17:00:00Z' });
    await lead({ name: 'L5 contacted urgent, February', status: 'contacted', priority: 'urgent', createdAt: '2026-02-01T15:00:00Z' });
    await lead({ name: 'L6 cancelled urgent, tomorrow midnight', status: 'cancelled', priority: 'urgent', createdAt: '2026-03-11T04:00:00Z' });

    // Chats: 'today-1' twice today (one chat), 'today-2' at today's midnight, 'today-3' at its last instant.
    await chat('today-1', '2026-03-10T13:00:00Z');
    await chat('today-1', '2026-03-10T13:05:00Z');
    await chat('today-2', '2026-03-10T04:00:00Z');
    await chat('today-3', '2026-03-11T03:59:59.999Z');
    await chat('yesterday', '2026-03-10T03:59:59.999Z');
    await chat('tomorrow', '2026-03-11T04:00:00Z');
  });

  const allWorkOrders = 7 + 6 + 4 + 4;

  it('counts every figure in the company time zone on a Tuesday morning', async () => {
    const dashboard = await dashboardAt(tuesdayMorning);
    expect(dashboard.today).toBe('2026-03-10');
    expect(dashboard.stats).toEqual({
      pendingOrders: 6,
      inProgressOrders: 7,
      todaysSchedule: 7,
      // L1 (pending), L3 (contacted), L5 (contacted, older): urgent and pending or contacted.
      urgentEstimates: 3,
      // L1, L2.
      pendingEstimates: 2,
      // Chats today-1 (two messages), today-2, today-3.
      aiChatsToday: 3,
      // L1, L3, L4: today and the 6 days before.
      leadsThisWeek: 3,
      // March's first instant, its last instant and today's completed job.
      completedThisMonth: 3,
      totalCustomers: 3,
      totalWorkOrders: allWorkOrders,
      // 2 pending estimates / 3 leads this week = 66.7 % → 67; 2 / 3 chats today → 67.
      conversionRate: 67,
      chatConversion: 67,
    });
  });

  it("lists today's first 5 by time preference (morning, afternoon, anytime), then start time", async () => {
    const { todaysSchedule } = await dashboardAt(tuesdayMorning);
    expect(titles(todaysSchedule)).toEqual(['T morning 08:00', 'T morning 10:00', 'T morning unscheduled', 'T afternoon 13:00', 'T afternoon completed']);
    expect(todaysSchedule[0]).toMatchObject({
      status: 'scheduled',
      timePreference: 'morning',
      scheduledStartTime: '08:00:00',
      serviceDate: '2026-03-10',
      customer: { name: 'Ann Ashley', phone: '(843) 555-0101', address: '1 Palmetto Bay Rd' },
    });
  });

  it('lists the first 5 in-progress and pending work orders by service date', async () => {
    const dashboard = await dashboardAt(tuesdayMorning);
    expect(titles(dashboard.inProgressWorkOrders)).toEqual(['In progress 03-01', 'In progress 03-02', 'In progress 03-03', 'In progress 03-04', 'In progress 03-05']);
    // Today's two pending ones share a date: the earlier created comes first.
    expect(titles(dashboard.pendingWorkOrders)).toEqual(['Pending 02-28', 'Pending 03-09', 'T anytime pending', 'T morning unscheduled', 'Pending 03-11']);
  });

  it("keeps 'today' on the company's date when UTC has already moved on", async () => {
    // 22:00 in New York is 02:00Z the next day.
    const lateEvening = await dashboardAt('2026-03-11T02:00:00Z');
    expect(lateEvening.today).toBe('2026-03-10');
    expect(lateEvening.stats).toEqual((await dashboardAt(tuesdayMorning)).stats);
    // The last instant of the company's day is still today.
    expect((await dashboardAt('2026-03-11T03:59:59.999Z')).stats.aiChatsToday).toBe(3);
  });

  it('moves today and the 7-day window at midnight in the company time zone', async () => {
    const dashboard = await dashboardAt('2026-03-11T04:00:00Z');
    expect(dashboard.today).toBe('2026-03-11');
    // Only 'Pending 03-11' is on the 11th.
    expect(dashboard.stats.todaysSchedule).toBe(1);
    expect(titles(dashboard.todaysSchedule)).toEqual(['Pending 03-11']);
    // Only the 'tomorrow' chat; 2 pending estimates / 1 chat = 200 %.
    expect(dashboard.stats.aiChatsToday).toBe(1);
    expect(dashboard.stats.chatConversion).toBe(200);
    // The window is now 5 to 11 March: L1 (4 March) left it, L6 (11 March 00:00) came in.
    expect(dashboard.stats.leadsThisWeek).toBe(3);
    expect(dashboard.stats.conversionRate).toBe(67);
    // Figures that do not depend on the date stay.
    expect(dashboard.stats).toMatchObject({ pendingOrders: 6, inProgressOrders: 7, urgentEstimates: 3, pendingEstimates: 2, totalWorkOrders: allWorkOrders });
  });

  it("keeps the window's first day to its last instant", async () => {
    // 10 March 23:59:59.999 EDT: the window is still 4 to 10 March.
    expect((await dashboardAt('2026-03-11T03:59:59.999Z')).stats.leadsThisWeek).toBe(3);
    // 9 March 12:00 EDT: the window is 3 to 9 March: L1, L2 (3 March 23:59:59.999 EST) and L4.
    expect((await dashboardAt('2026-03-09T16:00:00Z')).stats.leadsThisWeek).toBe(3);
    // 3 March 12:00 EST: 25 February to 3 March: only L2.
    expect((await dashboardAt('2026-03-03T17:00:00Z')).stats.leadsThisWeek).toBe(1);
  });

  it("counts this month's completions from its first to its last instant in company time", async () => {
    // 31 March 23:30 EDT: still March.
    const endOfMarch = await dashboardAt('2026-04-01T03:30:00Z');
    expect(endOfMarch.stats.completedThisMonth).toBe(3);
    // 1 April 00:00 EDT: April has only its first instant's completion.
    const aprilFirst = await dashboardAt('2026-04-01T04:00:00Z');
    expect(aprilFirst.today).toBe('2026-04-01');
    expect(aprilFirst.stats.completedThisMonth).toBe(1);
    // 28 February 23:59 EST: February has its last instant's one.
    expect((await dashboardAt('2026-03-01T04:59:00Z')).stats.completedThisMonth).toBe(1);
  });

  it('gives 0 % when there are no leads this week and no chats today', async () => {
    const dashboard = await dashboardAt('2026-06-15T16:00:00Z');
    expect(dashboard.stats).toMatchObject({ pendingEstimates: 2, leadsThisWeek: 0, aiChatsToday: 0, conversionRate: 0, chatConversion: 0, todaysSchedule: 0 });
    expect(dashboard.todaysSchedule).toEqual([]);
  });

  it('answers the same over HTTP, in one request, with the figures that do not depend on the clock', async () => {
    const response = await get();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = dashboardResponseSchema.parse(response.json());
    expect(body.stats).toMatchObject({
      pendingOrders: 6,
      inProgressOrders: 7,
      urgentEstimates: 3,
      pendingEstimates: 2,
      totalCustomers: 3,
      totalWorkOrders: allWorkOrders,
    });
    expect(titles(body.inProgressWorkOrders)).toEqual(['In progress 03-01', 'In progress 03-02', 'In progress 03-03', 'In progress 03-04', 'In progress 03-05']);
    expect(body.pendingWorkOrders).toHaveLength(5);
  });

  it('shows a committed change on the very next read', async () => {
    const before = dashboardResponseSchema.parse((await get()).json());
    expect((await get()).json()).toEqual(before);
    await context.database.query(`update work_orders set status = 'in-progress' where title = 'Pending 02-28'`);
    const after = dashboardResponseSchema.parse((await get()).json());
    expect(after.stats).toMatchObject({ pendingOrders: 5, inProgressOrders: 8 });
    expect(titles(after.pendingWorkOrders)).toEqual(['Pending 03-09', 'T anytime pending', 'T morning unscheduled', 'Pending 03-11', 'Pending 04-02']);
    await context.database.query(`update work_orders set status = 'pending' where title = 'Pending 02-28'`);
    expect((await get()).json().stats).toMatchObject({ pendingOrders: 6, inProgressOrders: 7 });
  });
});
