import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { cspHeader } from './security.ts';
import { sessionCookieFor } from './session.ts';

/** Where staff read the API: the document and its reference page (both behind the session guard). */
export const openApiDocumentPath = '/api/openapi.json';
export const apiReferencePrefix = '/api/docs';

/**
 * The reference page's group (OpenAPI tag) of an operation, from its address: `admin/customers`,
 * `admin/settings`, … for the staff calls, then `tech`, `public`, `auth`, and `site` for the pages'
 * own routes (/healthz, /sitemap.xml, …).
 *
 * Why groups, shown closed: Swagger UI (5.33 on) virtualizes the operations list once it has 150
 * rows (a row per group heading and per operation of an open group); from then on only the rows in
 * view are in the page, so an operation further down is not rendered until scrolled to, and the
 * browser's find does not see it. One flat group of 150-odd operations crossed that line (decision
 * 026-c); closed groups keep the list to a row per group, and an opened group renders in full.
 */
export function referenceTagOf(url: string): string {
  const [root, area, section] = url.split('/').slice(1);
  if (root !== 'api' || !area) return 'site';
  return area === 'admin' && section ? `admin/${section}` : area;
}

/**
 * The OpenAPI 3.1 document, built from the routes' zod schemas as they are registered (so this must
 * be registered before any route), and the staff reference page (decision 019-i). Both are staff
 * only: the session guard treats them like /api/admin (plugins/session.ts).
 */
export async function registerOpenApi(app: FastifyInstance, options: { company: CompanyProfile }): Promise<void> {
  const { company } = options;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${company.name} API`,
        version: '1.0.0',
        description:
          `The back office API of ${company.name}. Staff calls (/api/admin/*) need a signed-in session: ` +
          'POST /api/auth/login sets the session cookie that every later call sends. ' +
          'The technician app calls /api/tech/* with the session of a technician account.',
        contact: { name: company.name, email: company.email, url: company.siteUrl },
      },
      servers: [{ url: company.siteUrl }],
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieFor(company.siteUrl).name,
            description: 'The session cookie that POST /api/auth/login sets.',
          },
        },
      },
    },
    // The reference page's own routes are hidden (hide: true); nothing else is skipped.
    transform: createJsonSchemaTransform({ skipList: [] }),
    transformObject: jsonSchemaTransformObject,
  });

  app.addHook('onRoute', (route) => {
    // Each operation in the group its address names (see referenceTagOf).
    if (!route.schema?.hide && !route.schema?.tags) route.schema = { ...route.schema, tags: [referenceTagOf(route.url)] } as typeof route.schema;
    // Session security on the staff and technician routes only; the public ones (/api/public, /api/auth) stay open.
    if (!route.url.startsWith('/api/admin') && !route.url.startsWith('/api/tech/')) return;
    route.schema = { ...route.schema, security: [{ session: [] }] } as typeof route.schema;
  });

  app.get(openApiDocumentPath, { schema: { hide: true } }, async () => app.swagger());

  await app.register(swaggerUi, {
    routePrefix: apiReferencePrefix,
    // Groups in order of name, closed at first: see referenceTagOf.
    uiConfig: { validatorUrl: null, deepLinking: true, docExpansion: 'none', tagsSorter: 'alpha' },
    theme: { title: `${company.name} API reference` },
    // The page loads only its own files (no inline script): the server's base policy, stated here
    // so the page keeps it whatever the vendor's default (which adds https: sources) becomes.
    staticCSP: cspHeader(),
  });
}
