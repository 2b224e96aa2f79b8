import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { geocodingMessages, isInsideSouthCarolina, type GeocodingBatch } from '#shared/geocoding.ts';
import type { MapCustomerDetails } from '#shared/map.ts';
import { signIn } from './fixtures.ts';

// The geocoding setup page against the real server and its offline ZIP-centroid geocoder
// (GEOCODER=zip, a short pause: playwright.config.ts). Other journeys add pending customers at the
// same time, so nothing here counts on global figures: the page is driven until this test's own
// customers have been through a batch. Batches are one at a time on the server: serial here.
test.describe.configure({ mode: 'serial' });

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function pendingCustomer(request: APIRequestContext, values: { city: string; zip: string; state?: string }) {
  const name = unique('Geo Customer');
  const response = await request.post('/api/admin/customers', {
    data: { name, phone: '(843) 555-0177', address: `${Math.floor(Math.random() * 900) + 10} Geocode Street`, state: 'SC', type: 'residential', ...values },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { customer } = (await response.json()) as { customer: { id: string } };
  return { id: customer.id, name };
}

async function openSetup(page: Page) {
  await page.goto('/admin/geocoding-setup');
  await expect(page.getByRole('heading', { name: geocodingMessages.setupTitle, level: 1 })).toBeVisible();
  await expect(page.getByTestId('geocoding-status')).toBeVisible();
}

const results = (page: Page) => page.getByRole('list', { name: 'Batch results' });

test.describe('geocoding setup', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('shows the status panel, the instructions and the buttons the figures call for', async ({ page }) => {
    await pendingCustomer(page.request, { city: 'Bluffton', zip: '29910' });
    await openSetup(page);
    const status = page.getByTestId('geocoding-status');
    for (const label of ['Total customers', 'Geocoded', 'Failed', 'Pending', 'Success rate']) await expect(status.getByText(label)).toBeVisible();
    await expect(status).toContainText(/Success rate\s*\d+%/);
    for (const line of geocodingMessages.instructions) await expect(page.getByText(line)).toBeVisible();
    await expect(page.getByRole('button', { name: geocodingMessages.refreshStats })).toBeEnabled();
    // A pending customer exists (this test's): the button offers at most 5.
    await expect(page.getByRole('button', { name: /^Geocode Next [1-5] Addresses$/ })).toBeVisible();
    await expect(page.getByRole('link', { name: geocodingMessages.goToMap })).toHaveCount(0);
  });

  test('geocodes batches with progress and results, and a failed address gets its pin by hand', async ({ page }) => {
    const good = [await pendingCustomer(page.request, { city: 'Bluffton', zip: '29910' }), await pendingCustomer(page.request, { city: 'Charleston', zip: '29401' })];
    // An Atlanta ZIP: the centroid is outside South Carolina, so the result is rejected.
    const outside = await pendingCustomer(page.request, { city: 'Atlanta', zip: '30303', state: 'GA' });
    const mine = [...good, outside];
    await openSetup(page);

    const done = new Set<string>();
    let pinLink: string | null = null;
    for (let round = 0; round < 12 && done.size < mine.length; round += 1) {
      const button = page.getByRole('button', { name: /^Geocode Next [1-5] Addresses$/ });
      const [response] = await Promise.all([
        page.waitForResponse((answer) => answer.request().method() === 'POST' && new URL(answer.url()).pathname === '/api/admin/geocoding/batches'),
        button.click(),
      ]);
      expect([200, 202], await response.text()).toContain(response.status());
      const started = (await response.json()) as GeocodingBatch;
      // The batch runs on the server; the page follows it to the end.
      let finished = started;
      await expect
        .poll(async () => {
          finished = (await (await page.request.get(`/api/admin/geocoding/batches/${started.id}`)).json()) as GeocodingBatch;
          return finished.status;
        })
        .toBe('completed');
      const progress = page.getByRole('progressbar');
      await expect(results(page).getByRole('listitem')).toHaveCount(finished.results.length);
      if (finished.results[0]) await expect(results(page).getByRole('listitem').first()).toContainText(finished.results[0].name);
      await expect(progress).toHaveAttribute('aria-valuemax', String(finished.total));
      await expect(progress).toHaveAttribute('aria-valuenow', String(finished.total));
      await expect(page.getByTestId('geocoding-progress-count')).toHaveText(`${finished.total}/${finished.total}`);
      await expect(page.getByRole('status').filter({ hasText: /^(Processed \d+ customers: \d+ successful, \d+ failed|Completed batch: \d+\/\d+ successful)$/ })).toBeVisible();
      // Ready for the next batch, or nothing is left pending.
      await expect(page.getByRole('button', { name: /^Geocode Next [1-5] Addresses$/, disabled: false }).or(page.getByRole('link', { name: geocodingMessages.goToMap }))).toBeVisible();
      for (const customer of mine) {
        const row = results(page).getByRole('listitem').filter({ hasText: customer.name });
        if ((await row.count()) === 0) continue;
        done.add(customer.id);
        if (customer === outside) {
          await expect(row).toContainText(`${geocodingMessages.validationFailed([geocodingMessages.outsideBounds])}`);
          await expect(row).toContainText('Failed');
          pinLink = await row.getByRole('link', { name: 'Place pin on map' }).getAttribute('href');
        } else {
          await expect(row).toContainText(/3[2-4]\.\d{6}, -(79|8[0-3])\.\d{6}/);
          await expect(row).toContainText('Geocoded');
          await expect(row).toContainText(geocodingMessages.approximate);
        }
      }
    }
    expect(done.size).toBe(mine.length);

    // The geocoded ones are on the map now.
    for (const customer of good) {
      const details = (await (await page.request.get(`/api/admin/map/customers/${customer.id}`)).json()) as MapCustomerDetails;
      expect(isInsideSouthCarolina(details.latitude, details.longitude)).toBe(true);
    }

    // A failure can be retried (failed > 0) or placed by hand.
    await page.getByRole('button', { name: geocodingMessages.refreshStats }).click();
    await expect(page.getByRole('button', { name: geocodingMessages.retryFailed })).toBeVisible();
    expect(pinLink).toBe(`/admin/map?view=customers&pin=${outside.id}`);
    await page.goto(pinLink!);
    await expect(page).toHaveURL(new RegExp(`/admin/map\\?view=customers&pin=${outside.id}`));
    await expect(page.getByText(`click the map where ${outside.name}`)).toBeVisible();
    await expect(page.getByText(/^Loading customers\.\.\.$/)).toHaveCount(0);
    const spot = await emptySpotNearCentre(page);
    await page.mouse.click(spot.x, spot.y);
    await expect(page.getByRole('status').filter({ hasText: `${geocodingMessages.manualPinSaved}: ${outside.name}` })).toBeVisible();
    await expect(page).not.toHaveURL(/pin=/);
    const pinned = (await (await page.request.get(`/api/admin/map/customers/${outside.id}`)).json()) as MapCustomerDetails;
    expect(isInsideSouthCarolina(pinned.latitude, pinned.longitude)).toBe(true);
    await expect(page.getByRole('region', { name: 'Map of customers' }).getByRole('button', { name: new RegExp(outside.name) })).toBeVisible();
  });

  test('an interrupted batch offers Resume (the server side of resuming is in tests/integration)', async ({ page }) => {
    // The browser's part only: a restart mid-batch cannot be staged from here, so the server's
    // answer for the latest batch is replaced by an interrupted one.
    const interrupted: GeocodingBatch = {
      id: '00000000-0000-4000-8000-00000000d00d',
      status: 'interrupted',
      provider: 'zip',
      total: 5,
      processed: 2,
      succeeded: 2,
      failed: 0,
      results: [],
      message: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
    };
    await page.route('**/api/admin/geocoding/batches/current', (route) => route.fulfill({ json: interrupted }));
    const resumed = { ...interrupted, status: 'completed' as const, processed: 5, succeeded: 5, message: geocodingMessages.processed(5, 5, 0) };
    let resumeCalls = 0;
    await page.route(`**/api/admin/geocoding/batches/${interrupted.id}/resume`, (route) => {
      resumeCalls += 1;
      return route.fulfill({ status: 202, json: resumed });
    });
    await page.route(`**/api/admin/geocoding/batches/${interrupted.id}`, (route) => route.fulfill({ json: resumed }));
    await openSetup(page);
    await expect(page.getByRole('heading', { name: 'Batch interrupted' })).toBeVisible();
    await expect(page.getByTestId('geocoding-progress-count')).toHaveText('2/5');
    await expect(page.getByText('Resume it to geocode the 3 addresses it has left.')).toBeVisible();
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByRole('status').filter({ hasText: geocodingMessages.processed(5, 5, 0) })).toBeVisible();
    await expect(page.getByTestId('geocoding-progress-count')).toHaveText('5/5');
    expect(resumeCalls).toBe(1);
  });

  test("the map header's 'Geocode {n} addresses' runs a batch, then reloads the stats and the markers", async ({ page }) => {
    const customer = await pendingCustomer(page.request, { city: 'Beaufort', zip: '29902' });
    await page.goto('/admin/map?view=customers');
    await expect(page.getByRole('heading', { name: 'Service Map', level: 1 })).toBeVisible();
    const stats = page.getByTestId('geocoding-stats');
    await expect(stats).toHaveText(/^\d+\/\d+ geocoded \(\d+%\)$/);
    const successBefore = Number((await stats.textContent())!.split('/')[0]);
    const button = page.getByRole('button', { name: /^Geocode \d+ addresses$/ });
    await expect(button).toBeVisible();
    await button.click();
    await expect(page.getByRole('status').filter({ hasText: /^(Processed \d+ customers: \d+ successful, \d+ failed|Completed batch: \d+\/\d+ successful)$/ })).toBeVisible();
    await expect.poll(async () => Number((await stats.textContent())!.split('/')[0])).toBeGreaterThan(successBefore);
    // Batches take the oldest pending addresses first: run more from here until this customer's turn came.
    await expect
      .poll(async () => {
        const answer = await page.request.get(`/api/admin/customers/${customer.id}`);
        const { customer: saved } = (await answer.json()) as { customer: { latitude: number | null } };
        if (saved.latitude !== null) return true;
        if (await button.isEnabled().catch(() => false)) await button.click();
        return false;
      })
      .toBe(true);
  });
});

/** A point of the map near its centre with no marker on it (a click there lands on the map itself). */
async function emptySpotNearCentre(page: Page): Promise<{ x: number; y: number }> {
  const map = page.getByRole('region', { name: 'Map of customers' });
  const box = (await map.boundingBox())!;
  const spot = await page.evaluate(
    ({ left, top, width, height }) => {
      for (let ring = 0; ring < 12; ring += 1) {
        for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]] as const) {
          const x = left + width / 2 + dx * ring * 12;
          const y = top + height / 2 + dy * ring * 12;
          const element = document.elementFromPoint(x, y);
          if (element && (element.classList.contains('leaflet-container') || element.closest('.leaflet-tile-pane'))) return { x, y };
        }
      }
      return null;
    },
    { left: box.x, top: box.y, width: box.width, height: box.height },
  );
  if (!spot) throw new Error('no free spot near the centre of the map');
  return spot;
}
