import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  dashboardMessages,
  dashboardPaths,
  dashboardStatLabels,
  emptyDashboard,
  type DashboardResponse,
  type DashboardWorkOrder,
} from '#shared/dashboard.ts';
import { todayIn } from '#shared/dates.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The dashboard against the real server and its demo data (work orders in every status, leads,
// chats). Other journeys add data in parallel, so figures are checked for shape here and to the
// unit in tests/integration/dashboard.test.ts; where a case needs exact content (the error
// fallback, a pending job today) the answer is replaced in the browser.

const dashboardUrl = '**/api/admin/dashboard';

const figures = (page: Page) => page.getByRole('region', { name: 'Figures' });
const card = (page: Page, label: string) => figures(page).getByRole('listitem').filter({ has: page.getByText(label, { exact: true }) });
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

async function readDashboard(request: APIRequestContext): Promise<DashboardResponse> {
  const response = await request.get('/api/admin/dashboard');
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as DashboardResponse;
}

async function createTodaysPendingWorkOrder(request: APIRequestContext): Promise<{ id: string; title: string }> {
  const customerResponse = await request.post('/api/admin/customers', {
    data: { name: `Dash Customer ${Date.now().toString(36)}`, phone: '(843) 555-0166', address: '3 Dashboard Dr', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const { customer } = (await customerResponse.json()) as { customer: { id: string } };
  const title = `Dashboard start ${Date.now().toString(36)}`;
  const response = await request.post('/api/admin/work-orders', {
    data: { customerId: customer.id, title, description: 'Created by the dashboard journey.', timePreference: 'morning' },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { workOrder } = (await response.json()) as { workOrder: { id: string } };
  return { id: workOrder.id, title };
}

/** Clicks a link and checks where it went (path and query), then comes back. */
async function expectLeadsTo(page: Page, link: Locator, path: string): Promise<void> {
  await expect(link).toHaveAttribute('href', path);
  await link.click();
  // The calendar writes the week it shows (date, view) into the address: not part of the link.
  const withoutCalendarState = (url: URL) => {
    const params = new URLSearchParams(url.search);
    if (url.pathname === dashboardPaths.calendar) for (const name of ['date', 'view']) params.delete(name);
    const search = params.toString();
    return `${url.pathname}${search ? `?${search}` : ''}`;
  };
  await expect(page).toHaveURL((url) => withoutCalendarState(url) === path);
  // The calendar rewrites its own history entry as it settles: come back by address from there.
  if (path === dashboardPaths.calendar) await page.goto('/admin');
  else await page.goBack();
  await expect(figures(page)).toBeVisible();
}

test.describe('dashboard', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('shows every figure card with a number, in the spec order', async ({ page }) => {
    const labels = Object.values(dashboardStatLabels);
    const items = figures(page).getByRole('listitem');
    await expect(items).toHaveCount(labels.length);
    for (const [index, label] of labels.entries()) {
      const isRate = label === dashboardStatLabels.conversionRate || label === dashboardStatLabels.chatConversion;
      await expect(items.nth(index)).toHaveText(new RegExp(`^${label}\\d+${isRate ? '%' : ''}`));
    }
    const { stats } = await readDashboard(page.request);
    expect(stats.totalWorkOrders).toBeGreaterThan(0);
    expect(stats.totalCustomers).toBeGreaterThan(0);
    await expect(card(page, dashboardStatLabels.totalWorkOrders)).not.toHaveText(new RegExp(`${dashboardStatLabels.totalWorkOrders}0$`));
    await expectNoSeriousA11yViolations(page);
  });

  test('the cards and quick actions lead where the spec says', async ({ page }) => {
    await expect(card(page, dashboardStatLabels.pendingOrders)).toHaveText(/\d/);
    await expectLeadsTo(page, card(page, dashboardStatLabels.pendingEstimates).getByRole('link'), dashboardPaths.estimates);

    const { stats } = await readDashboard(page.request);
    const urgent = card(page, dashboardStatLabels.urgentEstimates);
    if (stats.urgentEstimates > 0) await expectLeadsTo(page, urgent.getByRole('link'), dashboardPaths.urgentEstimates);
    else await expect(urgent.getByRole('link')).toHaveCount(0);

    const actions = page.getByRole('navigation', { name: 'Quick actions' });
    await expectLeadsTo(page, actions.getByRole('link', { name: 'Open Calendar' }), dashboardPaths.calendar);
    await expectLeadsTo(page, actions.getByRole('link', { name: 'Review Estimates' }), dashboardPaths.estimates);
    await expectLeadsTo(page, actions.getByRole('link', { name: 'New Work Order' }), dashboardPaths.newWorkOrder);
    await expectLeadsTo(page, actions.getByRole('link', { name: 'New Customer' }), dashboardPaths.newCustomer);
  });

  test('the Urgent Estimates card is a link only when there are urgent estimates', async ({ page }) => {
    const real = await readDashboard(page.request);
    await page.route(dashboardUrl, (route) => route.fulfill({ json: { ...real, stats: { ...real.stats, urgentEstimates: 0 } } }));
    await page.reload();
    const urgent = card(page, dashboardStatLabels.urgentEstimates);
    await expect(urgent).toHaveText(`${dashboardStatLabels.urgentEstimates}0`);
    await expect(urgent.getByRole('link')).toHaveCount(0);

    await page.unroute(dashboardUrl);
    await page.route(dashboardUrl, (route) => route.fulfill({ json: { ...real, stats: { ...real.stats, urgentEstimates: 4 } } }));
    await page.reload();
    await expectLeadsTo(page, card(page, dashboardStatLabels.urgentEstimates).getByRole('link', { name: /Urgent Estimates\s*4/ }), dashboardPaths.urgentEstimates);
  });

  test('In Progress toggles its list by mouse and keyboard; the sections lead to the lists, the calendar and each work order', async ({ page }) => {
    const inProgressSection = section(page, dashboardMessages.inProgressSection);
    const toggle = card(page, dashboardStatLabels.inProgressOrders).getByRole('button');
    await expect(inProgressSection).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(inProgressSection).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(inProgressSection).toBeHidden();
    await page.keyboard.press('Space');
    await expect(inProgressSection).toBeVisible();

    // At most 5 items in each list (demo data has more in progress and pending than that).
    const { stats } = await readDashboard(page.request);
    const inProgressItems = inProgressSection.getByRole('listitem');
    await expect(inProgressItems).toHaveCount(Math.min(5, stats.inProgressOrders));
    const pendingItems = section(page, dashboardMessages.pendingSection).getByRole('listitem');
    await expect(pendingItems).toHaveCount(Math.min(5, stats.pendingOrders));

    await expectLeadsTo(page, inProgressSection.getByRole('link', { name: /^View All/ }), dashboardPaths.inProgressWorkOrders);
    await expectLeadsTo(page, section(page, dashboardMessages.pendingSection).getByRole('link', { name: /^View All/ }), dashboardPaths.pendingWorkOrders);
    await expectLeadsTo(page, section(page, dashboardMessages.todaysScheduleSection).getByRole('link', { name: dashboardMessages.viewCalendar }), dashboardPaths.calendar);

    // 'Complete Job' opens the work order (the job is completed there), as does its title.
    await toggle.click();
    const first = inProgressItems.first();
    const complete = first.getByRole('link', { name: new RegExp(`^${dashboardMessages.completeJob}`) });
    const href = await complete.getAttribute('href');
    expect(href).toMatch(/^\/admin\/workorders\/[0-9a-f-]{36}$/);
    const title = (await first.getByRole('link').first().textContent())!;
    await expect(first.getByRole('link', { name: title, exact: true })).toHaveAttribute('href', href!);
    await complete.click();
    await expect(page).toHaveURL(new RegExp(`${href!}$`));
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  });

  test("'Start Job' is offered on today's pending work orders and opens the work order", async ({ page }) => {
    const created = await createTodaysPendingWorkOrder(page.request);
    const real = await readDashboard(page.request);
    const today = todayIn('America/New_York');
    const item = (overrides: Partial<DashboardWorkOrder>): DashboardWorkOrder => ({
      id: created.id,
      workOrderNumber: 'WO-1',
      title: created.title,
      status: 'pending',
      priority: 'normal',
      serviceType: 'repair',
      serviceDate: today,
      timePreference: 'morning',
      scheduledStartTime: null,
      serviceAddress: null,
      serviceCity: null,
      serviceState: null,
      serviceZip: null,
      customer: { id: created.id, name: 'Dash Customer', phone: '(843) 555-0166', address: '3 Dashboard Dr' },
      ...overrides,
    });
    // Today's list as the server sends it: one pending, one scheduled.
    await page.route(dashboardUrl, (route) =>
      route.fulfill({
        json: {
          ...real,
          todaysSchedule: [item({}), item({ id: '00000000-0000-4000-8000-000000000001', title: 'Scheduled job', status: 'scheduled', scheduledStartTime: '09:00:00' })],
        },
      }),
    );
    await page.reload();
    const todays = section(page, dashboardMessages.todaysScheduleSection);
    await expect(todays.getByRole('listitem')).toHaveCount(2);
    await expect(todays.getByRole('listitem').nth(1)).toContainText('9:00 AM');
    await expect(todays.getByRole('listitem').nth(1).getByRole('link', { name: /^Start Job/ })).toHaveCount(0);
    const start = todays.getByRole('listitem').first().getByRole('link', { name: new RegExp(`^${dashboardMessages.startJob}`) });
    await expect(start).toHaveAttribute('href', `/admin/workorders/${created.id}`);
    await start.click();
    await expect(page).toHaveURL(new RegExp(`/admin/workorders/${created.id}$`));
    await expect(page.getByRole('heading', { name: created.title, level: 1 })).toBeVisible();
  });

  test('a failed load announces the error and shows zeros and empty lists, then recovers on retry', async ({ page }) => {
    // No live stream: its (re)connection would refetch by itself, and this is about the button.
    await page.route('**/api/admin/events', (route) => route.abort());
    await page.route(dashboardUrl, (route) => route.fulfill({ status: 500, json: { error: { code: 'INTERNAL', message: 'Something went wrong' } } }));
    await page.reload();
    await expect(page.getByRole('alert')).toContainText(dashboardMessages.loadFailed);
    for (const label of Object.values(dashboardStatLabels)) {
      await expect(card(page, label)).toContainText(label === dashboardStatLabels.conversionRate || label === dashboardStatLabels.chatConversion ? '0%' : '0');
    }
    await expect(card(page, dashboardStatLabels.totalWorkOrders)).toHaveText(`${dashboardStatLabels.totalWorkOrders}0`);
    await expect(section(page, dashboardMessages.todaysScheduleSection)).toContainText(dashboardMessages.nothingToday);
    await expect(section(page, dashboardMessages.pendingSection)).toContainText(dashboardMessages.nonePending);
    expect(emptyDashboard.pendingWorkOrders).toEqual([]);

    await page.unroute(dashboardUrl);
    await page.getByRole('button', { name: dashboardMessages.retry }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(card(page, dashboardStatLabels.totalWorkOrders)).not.toHaveText(`${dashboardStatLabels.totalWorkOrders}0`);
  });

  test('says it is loading until the figures arrive', async ({ page }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(dashboardUrl, async (route) => {
      await released;
      await route.continue();
    });
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: dashboardMessages.loading })).toBeVisible();
    await expect(figures(page).getByRole('list')).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(page.getByRole('status').filter({ hasText: dashboardMessages.loading })).toHaveCount(0);
    await expect(card(page, dashboardStatLabels.totalWorkOrders)).toHaveText(/\d+$/);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 812 } });

    test('fits the screen without sideways scrolling', async ({ page }) => {
      await expect(card(page, dashboardStatLabels.totalCustomers)).toHaveText(/\d+$/);
      await card(page, dashboardStatLabels.inProgressOrders).getByRole('button').click();
      await expect(section(page, dashboardMessages.inProgressSection)).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
    });
  });
});
