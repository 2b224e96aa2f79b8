import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, png } from '#tests/support/images.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Issue 15, decision 018-f: deleting customers and photos is admin-only. A dispatcher tries the
// ways around the rule an attacker would: encoded paths, trailing slashes, other cases, method
// override headers, and a session that was an admin's before a demotion.

let context: TestContext;
let adminCookie: string;
let dispatcherCookie: string;
let customerId: string;
let photoId: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, headers: Record<string, string> = {}) =>
  context.app.inject({ method, url, headers: { cookie, ...headers } });

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database, 'admin@example.com', undefined, 'admin');
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  adminCookie = await signIn(context.app, 'admin@example.com', undefined, '127.0.16.1');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com', undefined, '127.0.16.2');
  const created = await context.app.inject({
    method: 'POST',
    url: '/api/admin/customers',
    payload: { name: 'Kept Customer', phone: '843-555-0161', address: '4 Keep Ln' },
    headers: { cookie: adminCookie },
  });
  customerId = created.json().customer.id;
  const { payload, headers } = await multipartBody([{ name: 'kept.png', bytes: await png(), type: 'image/png' }]);
  const uploaded = await context.app.inject({ method: 'POST', url: `/api/admin/customers/${customerId}/photos`, payload, headers: { ...headers, cookie: adminCookie } });
  photoId = uploaded.json().photos[0].id;
});
afterAll(() => context?.close());

async function stillThere() {
  expect((await call('GET', `/api/admin/customers/${customerId}`, adminCookie)).statusCode).toBe(200);
  expect((await call('GET', `/api/admin/customers/${customerId}/photos/${photoId}/thumbnail`, adminCookie)).statusCode).toBe(200);
}

describe('a dispatcher deleting customers or photos', () => {
  it('is refused on every spelling of the address that reaches the route, and never deletes', async () => {
    const customer = `/api/admin/customers/${customerId}`;
    const photo = `${customer}/photos/${photoId}`;
    const attempts = [
      customer,
      photo,
      `/api/admin/%63ustomers/${customerId}`,
      `/api/%61dmin/customers/${customerId}`,
      `/api/admin/customers/${customerId}/photos/${photoId}`.replace('photos', '%70hotos'),
      `${customer}/`,
      `${photo}/`,
      `/api/admin/CUSTOMERS/${customerId}`,
      `${customer}?_method=DELETE`,
      `//api/admin/customers/${customerId}`,
      `/api/admin/./customers/${customerId}`,
      `/api/admin/x/../customers/${customerId}`,
    ];
    for (const url of attempts) {
      const response = await call('DELETE', url, dispatcherCookie);
      expect([403, 404], `${url}: ${response.statusCode}`).toContain(response.statusCode);
    }
    // Where the route is reached, the answer is the rule's 403.
    for (const url of [customer, photo, `/api/admin/%63ustomers/${customerId}`, `/api/%61dmin/customers/${customerId}`]) {
      const response = await call('DELETE', url, dispatcherCookie);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
    }
    await stillThere();
  });

  it('cannot turn another method into a delete with an override header', async () => {
    for (const method of ['POST', 'PUT', 'GET'] as const) {
      const response = await call(method, `/api/admin/customers/${customerId}`, dispatcherCookie, {
        'x-http-method-override': 'DELETE',
        'x-http-method': 'DELETE',
        'x-method-override': 'DELETE',
      });
      expect(response.statusCode, method).not.toBe(204);
    }
    await stillThere();
  });

  it('is judged on the role now, not the role at sign-in: a demoted admin is refused at once', async () => {
    const demoted = await createStaff(context.database, 'was-admin@example.com', undefined, 'admin');
    const demotedCookie = await signIn(context.app, 'was-admin@example.com', undefined, '127.0.16.3');
    const demote = await context.app.inject({
      method: 'PUT',
      url: `/api/admin/settings/staff/${demoted.id}/role`,
      payload: { role: 'dispatcher' },
      headers: { cookie: adminCookie },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    expect((await call('DELETE', `/api/admin/customers/${customerId}/photos/${photoId}`, demotedCookie)).statusCode).toBe(403);
    await stillThere();
  });
});
