import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarEvent, CalendarRangeEvent } from '#shared/calendar.ts';
import { todayIn } from '#shared/dates.ts';
import type { DashboardWorkOrder } from '#shared/dashboard.ts';
import { workOrderMessages, type WorkOrder, type WorkOrderListItem } from '#shared/work-order.ts';
import { addressLine, workOrderPlace, workOrderPlaceMessages } from '#shared/work-order-place.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Decision 018-a, follow-up: a work order's own service address is set, changed and cleared with
// 'Edit Details' (optimistic concurrency, audited), and every answer that says where a job is
// carries it beside the customer's address.

let context: TestContext;
let cookie: string;
let today: string;

function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { cookie } });
}

async function createCustomer(name: string): Promise<string> {
  const response = await api('POST', '/api/admin/customers', {
    name,
    phone: '(843) 555-0142',
    address: '10 Palmetto Bay Rd',
    city: 'Bluffton',
    state: 'SC',
    zip: '29910',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().customer.id;
}

async function createWorkOrder(customerId: string, overrides: Record<string, unknown> = {}): Promise<WorkOrder> {
  const response = await api('POST', '/api/admin/work-orders', { customerId, title: 'No cooling', description: 'Warm air.', ...overrides });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().workOrder;
}

const edits = (order: WorkOrder, overrides: Record<string, unknown> = {}) => ({
  title: order.title,
  serviceType: order.serviceType,
  priority: order.priority,
  serviceDate: order.serviceDate,
  timePreference: order.timePreference,
  description: order.description,
  technicianId: order.technicianId,
  equipmentId: order.equipmentId,
  expectedUpdatedAt: order.updatedAt,
  ...overrides,
});

const rentalHouse = { serviceAddress: '88 Sea Pines Dr', serviceCity: 'Hilton Head Island', serviceState: 'sc', serviceZip: '29928' };
const cleared = { serviceAddress: null, serviceCity: null, serviceState: null, serviceZip: null };

const auditOf = (entityId: string) =>
  context.database.query<{ action: string; changes: Record<string, unknown> }>(
    `select action, changes from audit_log where entity_id = $1 order by occurred_at, id`,
    [entityId],
  );

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  today = todayIn(context.config.businessTimeZone);
});

afterAll(async () => {
  await context.close();
});

describe('the one answer to "where does this job happen"', () => {
  const customer = { address: '10 Palmetto Bay Rd', city: 'Bluffton', state: 'SC', zip: null };
  it("is the service address when set, else the customer's address", () => {
    expect(workOrderPlace({ serviceAddress: '88 Sea Pines Dr', serviceCity: 'Hilton Head Island', serviceState: 'SC', serviceZip: '29928' }, customer)).toEqual({
      address: '88 Sea Pines Dr', city: 'Hilton Head Island', state: 'SC', zip: '29928', isServiceAddress: true,
    });
    expect(workOrderPlace({ serviceAddress: null, serviceCity: null, serviceState: null, serviceZip: null }, customer)).toEqual({ ...customer, isServiceAddress: false });
  });

  it('reads as one line without repeating what a visitor typed after a comma', () => {
    expect(addressLine({ address: '88 Sea Pines Dr', city: 'Hilton Head Island', state: 'SC', zip: '29928' })).toBe('88 Sea Pines Dr, Hilton Head Island, SC 29928');
    expect(addressLine({ address: '12 Marsh Hen Ln, Bluffton, SC 29910', city: 'Bluffton', state: 'SC', zip: '29910' })).toBe('12 Marsh Hen Ln, Bluffton, SC 29910');
    expect(addressLine({ address: '5 Bluffton Pkwy', city: 'Bluffton', state: 'SC', zip: null })).toBe('5 Bluffton Pkwy, Bluffton, SC');
  });
});

describe('Edit Details', () => {
  it('sets, changes and clears the service address, each based on the version shown, and records each change', async () => {
    const order = await createWorkOrder(await createCustomer('Rental Owner'));
    expect(order).toMatchObject(cleared);

    const set = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, rentalHouse));
    expect(set.statusCode, set.body).toBe(200);
    const withAddress = set.json().workOrder as WorkOrder;
    expect(withAddress).toMatchObject({ ...rentalHouse, serviceState: 'SC' });

    // A stale save (based on the first version) changes nothing: 409 with the current values.
    const stale = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { ...rentalHouse, serviceAddress: '1 Other St' }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(workOrderMessages.conflict);
    expect(stale.json().error.details.current).toMatchObject({ serviceAddress: '88 Sea Pines Dr', updatedAt: withAddress.updatedAt });

    // Leaving the four fields out keeps them (integrators that predate the service address).
    const untouched = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(withAddress, { title: 'No cooling upstairs' }));
    expect(untouched.statusCode, untouched.body).toBe(200);
    expect(untouched.json().workOrder).toMatchObject({ title: 'No cooling upstairs', serviceAddress: '88 Sea Pines Dr', serviceZip: '29928' });

    const changed = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(untouched.json().workOrder, { ...rentalHouse, serviceAddress: '90 Sea Pines Dr', serviceZip: '' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().workOrder).toMatchObject({ serviceAddress: '90 Sea Pines Dr', serviceZip: null });

    const clear = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(changed.json().workOrder, { serviceAddress: '', serviceCity: '', serviceState: '', serviceZip: '' }));
    expect(clear.statusCode, clear.body).toBe(200);
    expect(clear.json().workOrder).toMatchObject(cleared);

    const updates = (await auditOf(order.id)).filter((entry) => entry.action === 'updated').map((entry) => entry.changes);
    expect(updates).toEqual([
      { serviceAddress: [null, '88 Sea Pines Dr'], serviceCity: [null, 'Hilton Head Island'], serviceState: [null, 'SC'], serviceZip: [null, '29928'] },
      { title: ['No cooling', 'No cooling upstairs'] },
      { serviceAddress: ['88 Sea Pines Dr', '90 Sea Pines Dr'], serviceZip: ['29928', null] },
      { serviceAddress: ['90 Sea Pines Dr', null], serviceCity: ['Hilton Head Island', null], serviceState: ['SC', null] },
    ]);
  });

  it('refuses part of an address, a bad state or ZIP, changing nothing', async () => {
    const order = await createWorkOrder(await createCustomer('Half Address'));
    const noCity = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { ...rentalHouse, serviceCity: '' }));
    expect(noCity.statusCode).toBe(400);
    expect(noCity.json().error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'serviceCity', message: workOrderPlaceMessages.incomplete })]));
    const onlyStreet = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { serviceAddress: '1 Lone St' }));
    expect(onlyStreet.statusCode).toBe(400);
    const badState = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { ...rentalHouse, serviceState: 'South Carolina' }));
    expect(badState.statusCode).toBe(400);
    const badZip = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { ...rentalHouse, serviceZip: '2992' }));
    expect(badZip.statusCode).toBe(400);
    expect((await api('GET', `/api/admin/work-orders/${order.id}`)).json().workOrder).toEqual(order);
  });
});

describe('a new work order', () => {
  it('takes a service address (the map\'s property) and records it with the creation', async () => {
    const order = await createWorkOrder(await createCustomer('New With Place'), rentalHouse);
    expect(order).toMatchObject({ ...rentalHouse, serviceState: 'SC' });
    const [created] = await auditOf(order.id);
    expect(created!.changes).toMatchObject({ serviceAddress: [null, '88 Sea Pines Dr'], serviceCity: [null, 'Hilton Head Island'] });
    const partial = await api('POST', '/api/admin/work-orders', { customerId: order.customerId, title: 'x', description: 'y', serviceAddress: '1 Lone St' });
    expect(partial.statusCode).toBe(400);
  });
});

describe('answers that say where a job is', () => {
  it('the list, its search results, the calendar and the dashboard carry the service address beside the customer\'s', async () => {
    const customerId = await createCustomer('Placeholder Pat');
    const order = await createWorkOrder(customerId, {
      ...rentalHouse,
      title: 'Beach house tune-up',
      serviceDate: today,
      startTime: '10:00',
      endTime: '11:00',
    });
    const expected = {
      ...rentalHouse,
      serviceState: 'SC',
      customer: { id: customerId, name: 'Placeholder Pat', address: '10 Palmetto Bay Rd' },
    };

    const list = (await api('GET', '/api/admin/work-orders')).json().workOrders as WorkOrderListItem[];
    expect(list.find((item) => item.id === order.id)).toMatchObject(expected);
    const search = (await api('GET', '/api/admin/work-orders?search=Placeholder')).json().workOrders as WorkOrderListItem[];
    expect(search.map((item) => item.id)).toEqual([order.id]);
    expect(search[0]).toMatchObject(expected);
    expect(addressLine(workOrderPlace(search[0]!, search[0]!.customer))).toBe('88 Sea Pines Dr, Hilton Head Island, SC 29928');

    // The calendar's grid shows the block; the appointment opened shows where the job is.
    const end = new Date(`${today}T12:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    const events = (await api('GET', `/api/admin/calendar/events?start=${today}&end=${end.toISOString().slice(0, 10)}`)).json().events as CalendarRangeEvent[];
    expect(events.map((event) => event.id)).toContain(order.id);
    expect((await api('GET', `/api/admin/calendar/events/${order.id}`)).json().event as CalendarEvent).toMatchObject(expected);

    const dashboard = (await api('GET', '/api/admin/dashboard')).json();
    const todays = dashboard.todaysSchedule as DashboardWorkOrder[];
    expect(todays.find((item) => item.id === order.id)).toMatchObject(expected);

    // Cleared, the answers say the job is at the customer's address.
    const detail = (await api('GET', `/api/admin/work-orders/${order.id}`)).json().workOrder as WorkOrder;
    const clear = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(detail, { serviceAddress: null, serviceCity: null, serviceState: null, serviceZip: null }));
    expect(clear.statusCode, clear.body).toBe(200);
    const after = (await api('GET', '/api/admin/work-orders?search=Placeholder')).json().workOrders as WorkOrderListItem[];
    expect(after[0]).toMatchObject(cleared);
    // The customer's street, as the screens showed it before.
    expect(addressLine(workOrderPlace(after[0]!, after[0]!.customer))).toBe('10 Palmetto Bay Rd');
    expect((await api('GET', `/api/admin/calendar/events/${order.id}`)).json().event as CalendarEvent).toMatchObject(cleared);
  });
});
