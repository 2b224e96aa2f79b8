import { Validator } from '@seriousme/openapi-schema-validator';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/** One registered route as the contract checks see it. */
type Route = { method: string; url: string; schema: Record<string, unknown> };

let context: TestContext;
let staffCookie: string;
const routes: Route[] = [];

beforeAll(async () => {
  context = await createTestApp({
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        routes.push({ method, url: route.url, schema: (route.schema ?? {}) as Record<string, unknown> });
      }
    },
  });
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  staffCookie = await signIn(context.app, 'dispatch@example.com');
});
afterAll(() => context.close());

/** The API's own routes: /api/*, without the automatic HEAD twins and the reference page's vendor routes (hidden from the document). */
const apiRoutes = () =>
  routes.filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && route.schema.hide !== true);
const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/**
 * POST/PUT/PATCH routes without a JSON body: the action is in the address (declaring a body schema
 * would start refusing bodies that clients send today), or the body is multipart (read part by part).
 */
const takesNoBody = new Set([
  'POST /api/auth/logout',
  'POST /api/admin/notifications/read-all',
  'POST /api/admin/notifications/:id/read',
  'POST /api/admin/settings/staff/:id/deactivate',
  'POST /api/admin/settings/staff/:id/reactivate',
  'POST /api/admin/settings/integrations/:name/test',
  'POST /api/admin/geocoding/batches/:id/resume',
  'POST /api/admin/customers/:id/photos',
  'POST /api/tech/visits/:id/photos',
  'POST /api/admin/price-book/import',
  'POST /api/admin/work-orders/:id/en-route',
  'POST /api/admin/messages/:id/resend',
  'POST /api/admin/invoices/:id/issue',
  'POST /api/admin/work-orders/:id/invoice',
  'POST /api/admin/invoices/:id/send',
  'POST /api/admin/quotes/:id/send',
  'POST /api/admin/quotes/:id/revise',
  'POST /api/public/invoices/:token/checkout',
  'POST /api/public/visits/:token/cancel',
  // Stripe's raw, signed event: read as bytes for the signature check, then by the adapter's own schemas.
  'POST /api/public/payments/stripe/webhook',
]);

/**
 * The routes still without contracts (issue 16 item 1): none. Kept, empty, so a route added without
 * schemas has to be named here on purpose; the list must be exact.
 */
const withoutContractsYet = new Set<string>([]);

function missingContracts(route: Route): string[] {
  const missing: string[] = [];
  const response = route.schema.response as Record<string, unknown> | undefined;
  if (!response || !Object.keys(response).some((status) => /^2\d\d$/.test(status))) missing.push('response');
  if (route.url.includes(':') && !route.schema.params) missing.push('params');
  if (['POST', 'PUT', 'PATCH'].includes(route.method) && !route.schema.body && !takesNoBody.has(key(route))) missing.push('body');
  return missing;
}

describe('contracts on every /api route', () => {
  it('enumerates the routes', () => {
    expect(apiRoutes().length).toBeGreaterThan(60);
    expect(apiRoutes().map(key)).toContain('GET /api/admin/customers');
  });

  it('gives every /api route a success response schema, and params and body schemas where it takes them', () => {
    const problems = apiRoutes()
      .filter((route) => !withoutContractsYet.has(key(route)))
      .map((route) => ({ route: key(route), missing: missingContracts(route) }))
      .filter((problem) => problem.missing.length > 0);
    expect(problems).toEqual([]);
  });

  it('keeps the remaining-work list exact: every route on it exists and still lacks a contract', () => {
    const byKey = new Map(apiRoutes().map((route) => [key(route), route]));
    for (const entry of withoutContractsYet) {
      const route = byKey.get(entry);
      expect(route, entry).toBeDefined();
      expect(missingContracts(route!), entry).not.toEqual([]);
    }
  });
});

describe('the OpenAPI document', () => {
  it('is for staff only: anonymous callers get 401', async () => {
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/', '/api/docs/json', '/api/%64ocs/json']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } });
    }
  });

  it('validates as OpenAPI 3.1 and lists every /api route with its methods', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: staffCookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe(`${context.config.company.name} API`);
    expect(document.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: context.app.sessionCookie.name });

    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const expected = apiRoutes()
      .filter((route) => route.url !== '/api/openapi.json')
      .map((route) => `${route.method} ${route.url.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(expected.filter((route) => !documented.has(route))).toEqual([]);
    // The public submissions' Idempotency-Key is declared as a header (validated by the route schema).
    for (const path of ['/api/public/estimate-requests', '/api/public/chat/bookings']) {
      expect(document.paths[path].post.parameters, path).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }),
      );
    }
    // A technician's double booking is a documented 409 (shared/calendar.ts), on every route that books one.
    for (const [path, method] of [
      ['/api/admin/work-orders', 'post'],
      ['/api/admin/work-orders/{id}/reschedule', 'post'],
      ['/api/admin/work-orders/{id}/appointment', 'put'],
      ['/api/admin/work-orders/{id}/assign', 'post'],
    ] as const) {
      expect(JSON.stringify(document.paths[path][method].responses['409']), path).toContain('SCHEDULE_OVERLAP');
    }
    expect(document.paths['/api/admin/dashboard'].get.security).toEqual([{ session: [] }]);
    expect(document.paths['/api/tech/visits'].get.security).toEqual([{ session: [] }]);
    // The technician app's batch (decision 022-d): its cap is in the document.
    const batch = document.paths['/api/tech/visits/{id}/actions/batch'].post;
    expect(batch.security).toEqual([{ session: [] }]);
    expect(batch.requestBody.content['application/json'].schema.properties.actions).toMatchObject({ minItems: 1, maxItems: 50 });
    expect(document.paths['/api/auth/login'].post.security).toBeUndefined();

    // Each operation in one group of the reference page, named by its address (plugins/openapi.ts);
    // a group opened alone stays under Swagger UI's 150 rows, from which it renders only the rows in view.
    const groups = new Map<string, number>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { tags?: string[] }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.tags, `${method} ${path}`).toHaveLength(1);
        groups.set(operation.tags![0]!, (groups.get(operation.tags![0]!) ?? 0) + 1);
      }
    }
    expect(document.paths['/api/admin/settings/booking'].put.tags).toEqual(['admin/settings']);
    expect(document.paths['/api/public/booking/windows'].get.tags).toEqual(['public']);
    expect(document.paths['/healthz'].get.tags).toEqual(['site']);
    expect(Math.max(...groups.values()) + 1).toBeLessThan(150);
  });
});
