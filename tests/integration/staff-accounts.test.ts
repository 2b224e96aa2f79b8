import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '#tests/support/event-stream-client.ts';
import { createStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let baseUrl: string;
let adminCookie: string;
let dispatcherCookie: string;
const routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  context = await createTestApp({
    liveStreamLimits: { heartbeatMs: 100 },
    onRoute: (route: RouteOptions) => {
      const methods = ([] as HTTPMethods[]).concat(route.method);
      for (const method of methods) routes.push({ method, url: route.url });
    },
  });
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createStaff(context.database, 'dispatch@example.com', testPassword, 'dispatcher');
  adminCookie = await signIn(context.app, 'admin@example.com');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
  baseUrl = await context.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => context.close());

const isSettingsRoute = (url: string) => url === '/api/admin/settings' || url.startsWith('/api/admin/settings/');
/** A concrete address for a route pattern: every parameter becomes a well-formed id that names nothing. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

async function statusOf(method: string, url: string, cookie: string): Promise<number> {
  if (url === '/api/admin/events') {
    // The live stream never ends by itself: read the status over real HTTP, then hang up.
    const stream = await openEventStream(`${baseUrl}${url}`, { cookie });
    stream.close();
    return stream.status;
  }
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);
  const response = await context.app.inject({
    method: method as InjectOptions['method'],
    url: concrete(url),
    headers: { cookie },
    ...(hasBody ? { payload: {} } : {}),
  });
  return response.statusCode;
}

describe('roles on every admin route', () => {
  it('knows the admin routes (the enumeration works)', () => {
    const adminRoutes = routes.filter((route) => route.url.startsWith('/api/admin'));
    expect(adminRoutes.length).toBeGreaterThan(10);
    expect(adminRoutes).toContainEqual({ method: 'GET', url: '/api/admin/customers' });
  });

  it('refuses a dispatcher every /api/admin/settings route with 403 and lets them reach every other admin route', async () => {
    const adminRoutes = routes.filter((route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD');
    for (const route of adminRoutes) {
      const status = await statusOf(route.method, route.url, dispatcherCookie);
      if (isSettingsRoute(route.url)) expect(status, `${route.method} ${route.url}`).toBe(403);
      else expect(status, `${route.method} ${route.url}`).not.toBe(403);
    }
  });

  it('lets an admin reach every admin route, settings included', async () => {
    const adminRoutes = routes.filter((route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD');
    for (const route of adminRoutes) {
      const status = await statusOf(route.method, route.url, adminCookie);
      expect(status, `${route.method} ${route.url}`).not.toBe(403);
      expect(status, `${route.method} ${route.url}`).not.toBe(401);
    }
  });

  it('refuses a dispatcher under /api/admin/settings even for paths that do not exist, with the one message', async () => {
    for (const url of ['/api/admin/settings', '/api/admin/settings/nothing-here', '/api/admin/settings/?x=1']) {
      const response = await context.app.inject({ method: 'GET', url, headers: { cookie: dispatcherCookie } });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Only an administrator can change settings.' } });
    }
  });

  it('judges the route the router matched, not only the raw address (percent-escapes)', async () => {
    const stranger = await context.app.inject({ method: 'GET', url: '/api/%61dmin/customers' });
    expect(stranger.statusCode).toBe(401);
    const encodedSettings = routes.find((route) => isSettingsRoute(route.url) && route.method === 'GET');
    if (encodedSettings) {
      const url = concrete(encodedSettings.url).replace('/settings', '/%73ettings');
      const response = await context.app.inject({ method: 'GET', url, headers: { cookie: dispatcherCookie } });
      expect(response.statusCode, url).toBe(403);
    }
  });
});
