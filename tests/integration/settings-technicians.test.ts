import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '#shared/audit.ts';
import { technicianMessages, type TechnicianSettingsItem } from '#shared/technician.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let cookie: string;

function api(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { cookie } });
}

async function add(name: string, color: string): Promise<TechnicianSettingsItem> {
  const response = await api('POST', '/api/admin/settings/technicians', { name, color });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().technician;
}

async function activity(id: string) {
  return ((await api('GET', `/api/admin/settings/activity?entityType=technician&entityId=${id}`)).json() as AuditListResponse).entries.reverse();
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
});
afterAll(() => context?.close());

describe('technicians in settings', () => {
  it('adds a technician with a colour (lower-cased), lists it, and the calendar pickers see it', async () => {
    const added = await add('  Mike   Johnson ', '#2563EB');
    expect(added).toMatchObject({ name: 'Mike Johnson', color: '#2563eb', active: true, openWorkOrders: 0 });
    const list = (await api('GET', '/api/admin/settings/technicians')).json().technicians as TechnicianSettingsItem[];
    expect(list.map((technician) => technician.name)).toContain('Mike Johnson');
    const pickers = (await api('GET', '/api/admin/technicians?active=true')).json().technicians;
    expect(pickers).toContainEqual({ id: added.id, name: 'Mike Johnson', color: '#2563eb', active: true });
    expect(await activity(added.id)).toMatchObject([{ action: 'created', entityLabel: 'Mike Johnson', changes: { name: [null, 'Mike Johnson'], color: [null, '#2563eb'] } }]);
  });

  it('refuses a bad colour, an empty name and an unknown id', async () => {
    const badColor = await api('POST', '/api/admin/settings/technicians', { name: 'Red', color: 'red' });
    expect(badColor.statusCode).toBe(400);
    expect(badColor.json().error.details).toContainEqual({ path: 'color', message: technicianMessages.colorInvalid });
    const shortHex = await api('POST', '/api/admin/settings/technicians', { name: 'Red', color: '#f00' });
    expect(shortHex.statusCode).toBe(400);
    const noName = await api('POST', '/api/admin/settings/technicians', { name: '  ', color: '#ff0000' });
    expect(noName.json().error.details).toContainEqual({ path: 'name', message: technicianMessages.nameRequired });
    expect((await api('PATCH', '/api/admin/settings/technicians/not-an-id', { name: 'X' })).statusCode).toBe(404);
    expect((await api('PATCH', '/api/admin/settings/technicians/00000000-0000-4000-8000-000000000000', { name: 'X' })).statusCode).toBe(404);
    const nothing = await api('PATCH', '/api/admin/settings/technicians/00000000-0000-4000-8000-000000000000', {});
    expect(nothing.statusCode).toBe(400);
  });

  it('keeps names unique among active technicians, any case; an inactive one frees its name', async () => {
    const first = await add('Sarah Williams', '#db2777');
    const twin = await api('POST', '/api/admin/settings/technicians', { name: 'sarah williams', color: '#000000' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error.message).toBe(technicianMessages.nameTaken('sarah williams'));

    const off = await api('PATCH', `/api/admin/settings/technicians/${first.id}`, { active: false });
    expect(off.json().technician).toMatchObject({ active: false });
    const second = await add('Sarah Williams', '#000000');
    // Reactivating the first would make two active Sarah Williams: refused.
    const back = await api('PATCH', `/api/admin/settings/technicians/${first.id}`, { active: true });
    expect(back.statusCode).toBe(409);
    const renamed = await api('PATCH', `/api/admin/settings/technicians/${second.id}`, { name: 'Sarah W. Jones' });
    expect(renamed.statusCode).toBe(200);
    expect((await api('PATCH', `/api/admin/settings/technicians/${first.id}`, { active: true })).statusCode).toBe(200);
  });

  it('renames, recolours and deactivates with an entry each; an inactive technician stays on its orders', async () => {
    const tech = await add('Carlos Rivera', '#16a34a');
    const [customer] = await context.database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Tech Customer', '843-555-0100', '1 Main St') returning id`);
    const order = await api('POST', '/api/admin/work-orders', { customerId: customer!.id, title: 'Tune-up', description: 'Yearly', technicianId: tech.id });
    expect(order.statusCode, order.body).toBe(201);

    expect((await api('PATCH', `/api/admin/settings/technicians/${tech.id}`, { name: 'Carlos R. Rivera' })).json().technician).toMatchObject({ name: 'Carlos R. Rivera', openWorkOrders: 1 });
    expect((await api('PATCH', `/api/admin/settings/technicians/${tech.id}`, { color: '#0891B2' })).json().technician).toMatchObject({ color: '#0891b2' });
    expect((await api('PATCH', `/api/admin/settings/technicians/${tech.id}`, { active: false })).json().technician).toMatchObject({ active: false });
    // The same values again change nothing and record nothing.
    expect((await api('PATCH', `/api/admin/settings/technicians/${tech.id}`, { active: false })).statusCode).toBe(200);

    expect((await activity(tech.id)).map((entry) => [entry.action, entry.changes])).toEqual([
      ['created', { name: [null, 'Carlos Rivera'], color: [null, '#16a34a'], active: [null, true] }],
      ['renamed', { name: ['Carlos Rivera', 'Carlos R. Rivera'] }],
      ['updated', { color: ['#16a34a', '#0891b2'] }],
      ['deactivated', { active: [true, false] }],
    ]);

    const pickers = (await api('GET', '/api/admin/technicians?active=true')).json().technicians as { id: string }[];
    expect(pickers.map((technician) => technician.id)).not.toContain(tech.id);
    const detail = (await api('GET', `/api/admin/work-orders/${order.json().workOrder.id}`)).json();
    expect(detail.technician).toMatchObject({ id: tech.id, name: 'Carlos R. Rivera' });
    const refused = await api('POST', '/api/admin/work-orders', { customerId: customer!.id, title: 'New', description: 'x', technicianId: tech.id });
    expect(refused.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/settings/technicians' })).statusCode).toBe(401);
    expect((await context.app.inject({ method: 'POST', url: '/api/admin/settings/technicians', payload: {} })).statusCode).toBe(401);
  });
});
