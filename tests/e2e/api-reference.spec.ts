import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures.ts';

// The staff API reference (issue 16, decision 019-i): Swagger UI over /api/openapi.json.
test('staff read the API reference: it renders the operations under its own CSP, and strangers are refused', async ({ page, request }) => {
  // Swagger UI reads a document of 150-odd operations (390 kB), and axe walks the page with three groups open:
  // longer than a journey's usual limit on a loaded two-core machine.
  test.slow();
  const anonymous = await request.get('/api/docs/');
  expect(anonymous.status()).toBe(401);

  await signIn(page);
  // From here on (the sign-in page itself asks for a session first and is answered 401).
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const response = await page.goto('/api/docs/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  // The title shows once Swagger UI has read the whole document: 15 s and more under load.
  await expect(page.getByRole('heading', { name: /API/ }).first()).toBeVisible({ timeout: 60_000 });

  // The operations come in groups by address, closed at first (server/plugins/openapi.ts): every
  // group of the document has its heading, and the list is not virtualized (Swagger UI renders only
  // the rows in view once a list has 150 of them, which is how the reference "lost" its operations).
  const document = (await (await page.request.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const groups = new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])));
  expect(groups).toContain('admin/settings');
  const group = (name: string) => page.locator(`.opblock-tag[data-tag="${name}"]`);
  await expect(page.locator('.opblock-tag')).toHaveCount(groups.size);
  expect((await page.locator('.opblock-tag').evaluateAll((headings) => headings.map((heading) => heading.getAttribute('data-tag')))).sort()).toEqual([...groups].sort());
  await expect(page.locator('.opblock')).toHaveCount(0);

  // A group opens with its operations; an operation opens with its response schema.
  const operation = (path: string) => page.locator(`.opblock-summary-path[data-path="${path}"]`);
  const block = (method: string, path: string) => page.locator(`.opblock-${method}`, { has: operation(path) });
  await group('admin/dashboard').click();
  await block('get', '/api/admin/dashboard').locator('.opblock-summary-control').click();
  await expect(block('get', '/api/admin/dashboard').locator('.responses-wrapper')).toBeVisible();

  // Online booking's operations (decision 026-c) are all there; the settings (patterns, steps, an
  // object per service type) and the open windows (a union by status) open with their schemas.
  await group('admin/settings').click();
  await group('public').click();
  const booking = [
    ['get', '/api/admin/settings/booking'],
    ['put', '/api/admin/settings/booking'],
    ['put', '/api/admin/settings/booking/technicians/{id}'],
    ['post', '/api/admin/settings/booking/technicians/{id}/time-off'],
    ['delete', '/api/admin/settings/booking/time-off/{id}'],
    ['get', '/api/public/booking/windows'],
  ] as const;
  for (const [method, path] of booking) await expect(block(method, path), `${method} ${path}`).toBeVisible();
  for (const [method, path] of [booking[1], booking[5]]) {
    await block(method, path).locator('.opblock-summary-control').click();
    await expect(block(method, path).locator('.responses-wrapper'), `${method} ${path}`).toBeVisible();
  }
  await expect(page.locator('.operations-virtual')).toHaveCount(0);
  expect(problems).toEqual([]);

  // Swagger UI's own markup: serious findings are recorded in decision 019-i rather than fixed here.
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  test.info().annotations.push({ type: 'axe', description: serious.map((violation) => `${violation.id} (${violation.nodes.length})`).join(', ') || 'none' });
  console.log('axe serious/critical on /api/docs:', serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length})`));
});
