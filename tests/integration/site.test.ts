import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPagePaths } from '#shared/public-pages.ts';
import { createTestApp, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
beforeAll(async () => {
  context = await createTestApp({ env: { COMPANY_SITE_URL: 'https://www.lowcountrycomfort.example/' } });
});
afterAll(() => context.close());

describe('for search engines', () => {
  it('sitemap.xml lists every public page at the configured address', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locations = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(publicPagePaths.map((path) => `https://www.lowcountrycomfort.example${path}`));
    expect(locations).toContain('https://www.lowcountrycomfort.example/MaintenancePlan');
    expect(response.body).not.toContain('/admin');
  });

  it('robots.txt keeps crawlers out of the back office and the API and points at the sitemap', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Disallow: /admin');
    expect(response.body).toContain('Disallow: /api/');
    expect(response.body).toContain('Sitemap: https://www.lowcountrycomfort.example/sitemap.xml');
  });
});
