import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { calendarMessages } from '#shared/calendar.ts';
import type { OpenWindowsResponse, OpenWindowText } from '#shared/booking.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Online booking (issue 21) against the real server: the booking page on a phone, the dispatcher's
// open calendar, and a window taken meanwhile. Technicians of other journeys count too, so each test
// adds its own (Monday to Friday, every service type: the defaults) and reads the windows as offered.

const phone = { width: 390, height: 844 };
const zip = '29910';
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function addTechnician(request: APIRequestContext): Promise<void> {
  const added = await request.post('/api/admin/settings/technicians', { data: { name: unique('Online Tech'), color: '#0d9488' } });
  expect(added.status(), await added.text()).toBe(201);
}

async function openRepairWindows(request: APIRequestContext): Promise<OpenWindowText[]> {
  const response = await request.get(`/api/public/booking/windows?serviceType=repair&zip=${zip}`);
  expect(response.ok(), await response.text()).toBe(true);
  const answer = (await response.json()) as OpenWindowsResponse;
  expect(answer.status).toBe('open');
  return answer.status === 'open' ? answer.windows : [];
}

/** Service type, ZIP code, "See open times": the windows' step. */
async function findTimes(page: Page) {
  await page.goto('/BookingPage');
  await page.getByRole('radio', { name: /^Repair/ }).check();
  await page.getByLabel('ZIP code of the visit').fill(zip);
  await page.getByRole('button', { name: 'See open times' }).click();
  await expect(page.getByRole('heading', { name: 'Choose an arrival time' })).toBeFocused();
}

async function fillDetails(page: Page, name: string) {
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Phone').fill('(843) 555-0161');
  await page.getByLabel(/^E-mail/).fill(`${name.replace(/\W+/g, '.').toLowerCase()}@example.com`);
  await page.getByLabel('Street address of the visit').fill('12 Osprey Cove, Bluffton, SC');
  await page.getByLabel('What is going on?').fill('The heat pump blows cold air.');
}

/** The arrival windows' radios (each labelled with its times, under its day). */
const windowChoices = (page: Page) => page.getByRole('form', { name: 'Your visit' }).getByRole('radio');

const pageWidthFits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.describe('online booking', () => {
  test('booked on a phone, the visit appears on a dispatcher’s open calendar without a reload', async ({ page, browser }) => {
    test.slow();
    await signIn(page);
    await addTechnician(page.request);
    const [first] = await openRepairWindows(page.request);
    expect(first).toBeDefined();
    await page.goto(`/admin/calendar?date=${first!.date}`);
    await expect(page.getByRole('heading', { name: calendarMessages.title, level: 1 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: calendarMessages.loading })).toHaveCount(0);

    const visitor = await browser.newContext({ viewport: phone, isMobile: true, hasTouch: true });
    const booking = await visitor.newPage();
    const name = unique('Phone Booker');
    await findTimes(booking);
    expect(await pageWidthFits(booking)).toBe(true);
    await expectNoSeriousA11yViolations(booking);
    // The first radio is the soonest window: the one the API offered first.
    const firstChoice = windowChoices(booking).and(booking.locator(`[value="${first!.date} ${first!.start}-${first!.end}"]`));
    await firstChoice.check();
    await fillDetails(booking, name);
    await booking.getByRole('button', { name: 'Book this time' }).click();
    await expect(booking.getByRole('heading', { name: 'You are booked' })).toBeFocused();
    await expect(booking.getByRole('status')).toContainText(/Your reference: WO-\d+/);
    await expect(booking.getByRole('status')).toContainText(/arriving between/);

    // The dispatcher's calendar, opened before, shows it on its day.
    await expect(page.locator(`[role="cell"][data-date="${first!.date}"]`).getByText(new RegExp(name))).toBeVisible();
    await visitor.close();
  });

  test('a window taken meanwhile: the page says so and offers the open times now', async ({ page, browser }) => {
    test.slow();
    await signIn(page);
    await addTechnician(page.request);
    const visitor = await browser.newContext({ viewport: phone });
    const booking = await visitor.newPage();
    await findTimes(booking);
    // The last one shown: the first is the other journey's.
    const choice = windowChoices(booking).last();
    const chosen = (await choice.getAttribute('value'))!;
    await choice.check();
    await fillDetails(booking, unique('Late Booker'));

    // Meanwhile others book that window until no technician is left for it.
    const [date, range] = chosen.split(' ') as [string, string];
    const [start, end] = range.split('-') as [string, string];
    let status = 201;
    for (let attempt = 0; status === 201 && attempt < 100; attempt += 1) {
      const response = await page.request.post('/api/public/booking', {
        data: { serviceType: 'repair', zip, date, start, end, name: unique('Quick Booker'), phone: '(843) 555-0162', email: `quick${attempt}@example.com`, address: '3 Pier Rd, Bluffton, SC' },
      });
      status = response.status();
    }
    expect(status).toBe(409);

    await booking.getByRole('button', { name: 'Book this time' }).click();
    await expect(booking.getByRole('alert')).toContainText('that time was just taken');
    await expect(booking.locator(`[value="${chosen}"]`)).toHaveCount(0);
    // Another open time books: the details typed are still there.
    await windowChoices(booking).first().check();
    await booking.getByRole('button', { name: 'Book this time' }).click();
    await expect(booking.getByRole('heading', { name: 'You are booked' })).toBeVisible();
    await visitor.close();
  });

  test('emergencies and services booked by phone point to the phone; a bad ZIP code is named', async ({ page }) => {
    await page.goto('/BookingPage');
    await page.getByRole('radio', { name: /^Emergency/ }).check();
    await expect(page.getByRole('alert')).toContainText('Emergencies are not booked online');
    await expect(page.getByRole('button', { name: 'See open times' })).toHaveCount(0);

    await page.getByRole('radio', { name: /^A new system/ }).check();
    await page.getByLabel('ZIP code of the visit').fill(zip);
    await page.getByRole('button', { name: 'See open times' }).click();
    await expect(page.getByRole('heading', { name: 'Book by phone' })).toBeVisible();

    await page.getByRole('radio', { name: /^Repair/ }).check();
    await page.getByLabel('ZIP code of the visit').fill('90210');
    await page.getByRole('button', { name: 'See open times' }).click();
    await expect(page.getByText('We do not book visits at ZIP code 90210 online')).toBeVisible();

    await page.getByLabel('ZIP code of the visit').fill('123');
    await page.getByRole('button', { name: 'See open times' }).click();
    await expect(page.getByLabel('ZIP code of the visit')).toBeFocused();
    await expect(page.getByText('Enter the 5-digit ZIP code of the address we visit.')).toBeVisible();
  });
});
