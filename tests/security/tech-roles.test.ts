import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { techMessages } from '#shared/tech.ts';
import { technicians } from '#server/db/schema/index.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * Roles around the technician app (issue 19, decision 022-a): a technician is refused every office
 * route (every /api/admin route the app registers, the live stream and the API document included),
 * and every /api/tech route refuses anyone but a technician linked to a technician record:
 * 401 without a session, 403 for an admin or a dispatcher, 403 for an unlinked technician account.
 */

let context: TestContext;
const routes: { method: string; url: string }[] = [];
const cookies = { admin: '', dispatcher: '', technician: '', unlinked: '', deactivated: '' };
let deactivatedTechnicianId = '';

/** A concrete address for a route pattern: every parameter becomes a well-formed id that names nothing. */
const concrete = (url: string) =>
  url
    .replace(':variant', 'thumbnail')
    .replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')
    .replace(/\*$/, 'x');

async function call(method: string, url: string, cookie: string | undefined, options: { origin?: string } = {}) {
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);
  return context.app.inject({
    method: method as InjectOptions['method'],
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(options.origin ? { origin: options.origin } : {}) },
    ...(hasBody ? { payload: {} } : {}),
  });
}

beforeAll(async () => {
  context = await createTestApp({
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) routes.push({ method, url: route.url });
    },
  });
  const [technician, leaving] = await context.database.db
    .insert(technicians)
    .values([{ name: 'Mike Johnson' }, { name: 'Sarah Williams' }])
    .returning({ id: technicians.id });
  deactivatedTechnicianId = leaving!.id;
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createStaff(context.database, 'dispatch@example.com', testPassword, 'dispatcher');
  await createTechnicianStaff(context.database, technician!.id, 'mike.tech@example.com');
  // A technician account whose technician was removed (or never linked).
  await createStaff(context.database, 'unlinked.tech@example.com', testPassword, 'technician');
  cookies.admin = await signIn(context.app, 'admin@example.com');
  cookies.dispatcher = await signIn(context.app, 'dispatch@example.com');
  cookies.technician = await signIn(context.app, 'mike.tech@example.com');
  cookies.unlinked = await signIn(context.app, 'unlinked.tech@example.com');
  // A technician deactivated in Settings while signed in (decision 022-a, "Later").
  await createTechnicianStaff(context.database, deactivatedTechnicianId, 'sarah.tech@example.com');
  cookies.deactivated = await signIn(context.app, 'sarah.tech@example.com');
  const deactivated = await context.app.inject({
    method: 'PATCH',
    url: `/api/admin/settings/technicians/${deactivatedTechnicianId}`,
    headers: { cookie: cookies.admin },
    payload: { active: false },
  });
  if (deactivated.statusCode !== 200) throw new Error(`deactivating failed: ${deactivated.body}`);
});
afterAll(() => context.close());

const officeRoutes = () => routes.filter((route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD');
const techRoutes = () => routes.filter((route) => route.url.startsWith('/api/tech') && route.method !== 'HEAD');

describe('a technician in the office', () => {
  it('knows the routes (the enumeration works)', () => {
    expect(officeRoutes().length).toBeGreaterThan(50);
    expect(officeRoutes()).toContainEqual({ method: 'GET', url: '/api/admin/events' });
    expect(techRoutes()).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/api/tech/session' },
        { method: 'GET', url: '/api/tech/visits' },
        { method: 'GET', url: '/api/tech/visits/:id' },
        { method: 'POST', url: '/api/tech/visits/:id/actions' },
        { method: 'POST', url: '/api/tech/visits/:id/actions/batch' },
        { method: 'POST', url: '/api/tech/visits/:id/photos' },
        { method: 'POST', url: '/api/tech/visits/:id/payments' },
        { method: 'GET', url: '/api/tech/visits/:id/signature' },
        { method: 'GET', url: '/api/tech/photos/:photoId/:variant' },
        { method: 'PUT', url: '/api/tech/account/password' },
      ]),
    );
  });

  it('is refused every /api/admin route with 403 and the message pointing to /tech', async () => {
    for (const route of officeRoutes()) {
      const response = await call(route.method, concrete(route.url), cookies.technician);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().error.message, `${route.method} ${route.url}`).toBe(techMessages.technicianOnlyInApp);
    }
  });

  it('is refused the API document, its reference page, paths that do not exist and percent-escaped office paths', async () => {
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/static/index.html', '/api/admin/nothing-here', '/api/%61dmin/customers', '/api/admin/settings/staff']) {
      const response = await call('GET', url, cookies.technician);
      expect(response.statusCode, url).toBe(403);
    }
  });
});

describe('everyone else in the technician app', () => {
  it('answers 401 without a session, before routing (paths that do not exist too)', async () => {
    for (const route of [...techRoutes(), { method: 'GET', url: '/api/tech/nothing-here' }]) {
      const response = await call(route.method, concrete(route.url), undefined);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 403 to an admin and a dispatcher on every /api/tech route', async () => {
    for (const cookie of [cookies.admin, cookies.dispatcher]) {
      for (const route of techRoutes()) {
        const response = await call(route.method, concrete(route.url), cookie);
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(response.json().error.message).toBe(techMessages.notTechnician);
        expect(response.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('answers 403 to a technician account with no technician linked', async () => {
    for (const route of techRoutes()) {
      const response = await call(route.method, concrete(route.url), cookies.unlinked);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().error.message).toBe(techMessages.noTechnicianLinked);
    }
  });

  it('answers 401 to a technician deactivated in Settings on every /api/tech route and every office route, and refuses their sign-in', async () => {
    for (const route of [...techRoutes(), ...officeRoutes()]) {
      const response = await call(route.method, concrete(route.url), cookies.deactivated);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    const login = await context.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'sarah.tech@example.com', password: testPassword }, remoteAddress: '127.0.3.1' });
    expect(login.statusCode).toBe(401);
  });

  it('lets the linked technician reach every /api/tech route (404 for ids that name nothing, not 401/403)', async () => {
    for (const route of techRoutes()) {
      const response = await call(route.method, concrete(route.url), cookies.technician);
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(response.statusCode);
    }
  });

  it('refuses a technician’s state-changing call from another site (the Origin check covers /api/tech)', async () => {
    const response = await call('POST', concrete('/api/tech/visits/:id/actions'), cookies.technician, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('Cross-site requests are not allowed.');
  });
});
