import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

/** The unread count the bell announces ("Notifications, 3 unread"; "Notifications" when none). */
async function unreadCount(button: Locator): Promise<number> {
  const label = (await button.getAttribute('aria-label')) ?? '';
  return Number(/, (\d+) unread$/.exec(label)?.[1] ?? 0);
}

async function submitEstimate(page: Page, name: string) {
  await page.goto('/estimate');
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill('live.visitor@example.com');
  await page.getByLabel('Phone').fill('843-555-0188');
  await page.getByLabel('Service Address').fill('7 Sea Pines Cir, Hilton Head Island, SC 29928');
  await page.getByLabel('Service Type').selectOption('maintenance');
  await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
}

test.describe('live updates and the notification bell', () => {
  test('staff see the bell count rise when a visitor asks for an estimate, without reloading; open it, mark read', async ({ page, browser }) => {
    await signIn(page);
    const liveStream = page.waitForResponse((response) => response.url().endsWith('/api/admin/events') && response.status() === 200);
    await page.goto('/admin/customers');
    await liveStream;
    await expect(bell(page)).toBeVisible();
    const before = await unreadCount(bell(page));
    let reloads = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads += 1;
    });

    // A visitor, in a browser context of their own, submits the estimate form.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    const name = uniqueName('Live Visitor');
    await submitEstimate(visitor, name);
    await visitorContext.close();

    await expect.poll(() => unreadCount(bell(page))).toBeGreaterThan(before);
    expect(reloads).toBe(0);

    // Open the bell: the newest notification names the visitor, unread.
    await bell(page).click();
    await expect(bell(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('heading', { name: 'Notifications' })).toBeFocused();
    const item = page.getByRole('button', { name: new RegExp(`Unread: New estimate request: Maintenance ${name} asked for maintenance`) });
    await expect(item).toBeVisible();

    // Opening it marks it read and goes to the leads screen.
    await item.click();
    await expect(page).toHaveURL(/\/admin\/estimates$/);
    // Other journeys add notifications meanwhile, so the item itself is checked, not the count.
    await bell(page).click();
    await expect(page.getByRole('button', { name: new RegExp(`^New estimate request: Maintenance ${name}`) })).toBeVisible();

    // Mark all as read, then Escape closes the panel and gives focus back to the bell.
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell(page)).toHaveAccessibleName('Notifications');
    await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(bell(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(bell(page)).toBeFocused();
  });

  test("a visitor's estimate request appears on an open leads screen, and the dashboard's figure rises, without reloading", async ({ page, browser }) => {
    await signIn(page);
    const name = uniqueName('Live Lead');
    const liveStream = page.waitForResponse((response) => response.url().endsWith('/api/admin/events') && response.status() === 200);
    // The search is the visitor's name: the list is empty until the request arrives.
    await page.goto(`/admin/estimates?filter=new&search=${encodeURIComponent(name)}`);
    await liveStream;
    const leads = page.getByRole('list', { name: 'Leads' }).getByRole('listitem');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(leads).toHaveCount(0);
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });

    const dashboardPage = await page.context().newPage();
    const dashboardStream = dashboardPage.waitForResponse((response) => response.url().endsWith('/api/admin/events') && response.status() === 200);
    await dashboardPage.goto('/admin');
    await dashboardStream;
    const pendingEstimates = dashboardPage.getByRole('region', { name: 'Figures' }).getByRole('listitem').filter({ hasText: 'Pending Estimates' });
    await expect(pendingEstimates).toHaveText(/\d/);
    const before = Number((await pendingEstimates.textContent())!.replace(/\D/g, ''));

    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await submitEstimate(visitor, name);
    await visitorContext.close();

    await expect(leads.filter({ hasText: name })).toHaveCount(1);
    expect(navigations).toBe(0);
    await expect.poll(async () => Number((await pendingEstimates.textContent())!.replace(/\D/g, ''))).toBeGreaterThan(before);
    await dashboardPage.close();
  });

  test('the bell panel fits a 375 px wide screen and has no serious accessibility problems', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page);
    await bell(page).click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('listitem').first().or(panel.getByText('No notifications'))).toBeVisible();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    const bellBox = (await bell(page).boundingBox())!;
    expect(bellBox.x + bellBox.width).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);
    // A press outside (the header's corner: the panel covers the page below) closes it.
    await page.mouse.click(4, 4);
    await expect(panel).toBeHidden();
  });
});
