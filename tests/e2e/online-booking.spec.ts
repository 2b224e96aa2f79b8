import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { bookingMessages } from '#shared/booking.ts';
import { calendarMessages } from '#shared/calendar.ts';
import type { OpenWindowsResponse, OpenWindowText } from '#shared/booking.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Online booking (issue 21) against the real server: the booking page on a phone, the dispatcher's
// open calendar, and a window taken meanwhile. Technicians of other journeys count too, so each test
// adds its own (Monday to Friday, every service type: the defaults) and reads the windows as offered.

// One file, one test at a time: the booking rules journey changes the company's windows and
// visit lengths, which the booking journeys read.
test.describe.configure({ mode: 'serial' });

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

  test('from the confirmation’s link the customer moves the visit, then cancels it', async ({ page, browser }) => {
    test.slow();
    await signIn(page);
    await addTechnician(page.request);
    const windows = await openRepairWindows(page.request);
    const first = windows[0]!;
    const booked = await page.request.post('/api/public/booking', {
      data: { serviceType: 'repair', zip, date: first.date, start: first.start, end: first.end, name: unique('Link Customer'), phone: '(843) 555-0163', email: 'link.customer@example.com', address: '5 Marsh View, Bluffton, SC' },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    const { visitPath, workOrderNumber } = (await booked.json()) as { visitPath: string; workOrderNumber: string };

    const visitor = await browser.newContext({ viewport: phone });
    const link = await visitor.newPage();
    await link.goto(visitPath);
    await expect(link.getByRole('heading', { level: 1, name: new RegExp(`Your visit ${workOrderNumber}`) })).toBeVisible();
    await expect(link.getByText('Booked')).toBeVisible();
    await expect(link.getByRole('heading', { name: 'Before we come' })).toBeVisible();
    expect(await pageWidthFits(link)).toBe(true);
    await expectNoSeriousA11yViolations(link);

    await link.getByRole('button', { name: 'Choose another time' }).click();
    await expect(link.getByRole('heading', { name: 'Choose another time' })).toBeFocused();
    const other = link.getByRole('radio').last();
    await other.check();
    await link.getByRole('button', { name: 'Move my visit' }).click();
    await expect(link.getByRole('status')).toHaveText('Your visit has moved. We sent you the new time.');
    await expect(link.getByRole('status')).toBeFocused();

    await link.getByRole('button', { name: 'Cancel visit' }).click();
    await expect(link.getByRole('heading', { name: 'Cancel this visit?' })).toBeFocused();
    await link.getByRole('button', { name: 'Yes, cancel my visit' }).click();
    await expect(link.getByRole('status')).toHaveText('Your visit is cancelled. We sent you a confirmation.');
    await expect(link.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(link.getByRole('button', { name: 'Cancel visit' })).toHaveCount(0);

    // The office sees both: the work order is cancelled, and its history names the customer's link.
    const found = await page.request.get(`/api/admin/work-orders?search=${workOrderNumber}`);
    const listed = ((await found.json()) as { workOrders: { workOrderNumber: string; status: string }[] }).workOrders.find((entry) => entry.workOrderNumber === workOrderNumber);
    expect(listed?.status).toBe('cancelled');

    await link.goto('/visit/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await expect(link.getByRole('heading', { name: 'Visit link not valid' })).toBeVisible();
    await visitor.close();
  });

  test('the chat’s Schedule Service offers the same open windows and books the one chosen, with a link to the visit', async ({ page }) => {
    test.slow();
    await signIn(page);
    await addTechnician(page.request);
    await page.goto('/');
    await page.getByRole('button', { name: 'Need Help?' }).click();
    const chat = page.getByRole('dialog', { name: 'HVAC Assistant' });
    await chat.getByRole('button', { name: 'Schedule Service' }).click();
    const form = chat.getByRole('region', { name: 'Schedule Service' });
    await form.getByLabel('Name').fill(unique('Chat Window'));
    await form.getByLabel('Phone').fill('(843) 555-0164');
    await form.getByLabel('Email').fill('chat.window@example.com');
    await form.getByLabel('Service Address').fill(`12 Marsh Hen Ln, Bluffton, SC ${zip}`);
    await form.getByLabel('Service Type').selectOption('repair');
    const arrival = form.getByLabel(/^Arrival time/);
    await expect(arrival).toBeVisible();
    const label = (await arrival.locator('option').nth(1).textContent())!;
    await arrival.selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Create Service Request' }).click();
    await expect(form).toHaveCount(0);
    const answer = chat.getByRole('log').locator('[data-sender="ai"]').last();
    await expect(answer).toContainText(`You are booked for ${label.split(', ').slice(0, 2).join(', ')}`);
    await expect(answer).toContainText(/Your reference: WO-\d+/);
    await expect(answer).toContainText('/visit/');
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

// Settings → Online booking (issue 21, decision 026-c): the booking rules are saved and kept; a
// technician's hours, service types and time off are set; wrong values are refused at the field.


/** A technician of this test's own (the booking settings' technicians are every technician). */
async function addNamedTechnician(page: Page): Promise<string> {
  const name = unique('Booker');
  const response = await page.request.post('/api/admin/settings/technicians', { data: { name, color: '#0e7490' } });
  expect(response.status(), await response.text()).toBe(201);
  return name;
}

/** Opens the technician's section of the Online booking tab. */
async function openTechnician(page: Page, name: string) {
  await page.locator('summary', { hasText: name }).click();
  const section = page.getByRole('region', { name, exact: true });
  await expect(section.getByRole('form', { name: `Hours and service types of ${name}` })).toBeVisible();
  return section;
}

test('the booking rules: a service type’s visit length and the arrival windows are saved and kept; a window ending before it starts is refused', async ({ page }) => {
  // Many steps and an axe run on a shared two-core machine.
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto('/admin/settings');
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Online booking' }).click();
  await expect(page).toHaveURL(/tab=booking/);
  const rules = page.getByRole('form', { name: 'Booking rules' });
  await expect(rules).toBeVisible();

  const windows = rules.getByRole('group', { name: 'Arrival windows' });
  await windows.getByLabel('Window 1 Start', { exact: true }).fill('11:00');
  await windows.getByLabel('Window 1 End', { exact: true }).fill('09:00');
  await rules.getByRole('button', { name: 'Save booking settings' }).click();
  const end = windows.getByLabel('Window 1 End', { exact: true });
  await expect(end).toHaveAccessibleDescription(bookingMessages.rangeOrder);
  await expect(end).toHaveAttribute('aria-invalid', 'true');
  await expect(end).toBeFocused();
  await expect(page.getByRole('alert').filter({ hasText: bookingMessages.rangeOrder })).toBeAttached();
  await expect(rules.getByText('Online booking settings saved.')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // New windows: every row removed, two added (out of order: they are kept in order).
  const remove = windows.getByRole('button', { name: /^Remove Window/ });
  for (let left = await remove.count(); left > 0; left -= 1) {
    await remove.first().click();
    await expect(remove).toHaveCount(left - 1);
  }
  await expect(windows.getByText('No arrival windows yet.')).toBeVisible();
  await windows.getByRole('button', { name: 'Add a window' }).click();
  await expect(windows.getByLabel('Window 1 Start', { exact: true })).toBeFocused();
  await windows.getByLabel('Window 1 Start', { exact: true }).fill('14:00');
  await windows.getByLabel('Window 1 End', { exact: true }).fill('16:30');
  await windows.getByRole('button', { name: 'Add a window' }).click();
  await windows.getByLabel('Window 2 Start', { exact: true }).fill('07:30');
  await windows.getByLabel('Window 2 End', { exact: true }).fill('10:00');

  const repair = rules.getByRole('group', { name: 'Repair', exact: true });
  const length = repair.getByLabel('Visit length (minutes)');
  const newLength = (await length.inputValue()) === '135' ? '150' : '135';
  await length.fill(newLength);
  await rules.getByRole('button', { name: 'Save booking settings' }).click();
  await expect(rules.getByRole('status').filter({ hasText: 'Online booking settings saved.' })).toBeVisible();
  await expect(windows.getByText(bookingMessages.rangeOrder)).toHaveCount(0);
  await expect(windows.getByLabel('Window 1 End', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');

  await page.reload();
  await expect(repair.getByLabel('Visit length (minutes)')).toHaveValue(newLength);
  await expect(windows.getByLabel('Window 1 Start', { exact: true })).toHaveValue('07:30');
  await expect(windows.getByLabel('Window 1 End', { exact: true })).toHaveValue('10:00');
  await expect(windows.getByLabel('Window 2 Start', { exact: true })).toHaveValue('14:00');
  await expect(windows.getByLabel('Window 2 End', { exact: true })).toHaveValue('16:30');
  await expect(windows.getByLabel('Window 3 Start', { exact: true })).toHaveCount(0);
  await expect(rules.getByText(/^Last saved /)).toBeVisible();
});

test('a technician’s working hours, service types and time off', async ({ page }) => {
  // Many steps and an axe run on a shared two-core machine.
  test.setTimeout(90_000);
  await signIn(page);
  const name = await addNamedTechnician(page);
  await page.goto('/admin/settings?tab=booking');
  const technician = await openTechnician(page, name);
  const hours = technician.getByRole('form', { name: `Hours and service types of ${name}` });

  // New technicians work Monday to Friday, 8:00 to 17:00, and do every service type.
  await expect(hours.getByLabel('Monday hours Start', { exact: true })).toHaveValue('08:00');
  await expect(hours.getByRole('group', { name: 'Saturday' })).toContainText('Day off.');
  await hours.getByLabel('Monday hours Start', { exact: true }).fill('07:00');
  await hours.getByLabel('Monday hours End', { exact: true }).fill('15:00');
  await hours.getByRole('button', { name: 'Remove Friday hours' }).click();
  await expect(hours.getByRole('button', { name: 'Add hours on Friday' })).toBeFocused();
  await hours.getByRole('button', { name: 'Add hours on Saturday' }).click();
  await hours.getByLabel('Saturday hours End', { exact: true }).fill('12:00');
  await hours.getByRole('checkbox', { name: 'Installation' }).uncheck();
  await hours.getByRole('checkbox', { name: 'Ductwork' }).uncheck();
  await hours.getByRole('button', { name: 'Save hours' }).click();
  await expect(technician.getByRole('status').filter({ hasText: `${name}’s hours and service types saved.` })).toBeVisible();

  await page.reload();
  await openTechnician(page, name);
  await expect(hours.getByLabel('Monday hours Start', { exact: true })).toHaveValue('07:00');
  await expect(hours.getByLabel('Monday hours End', { exact: true })).toHaveValue('15:00');
  await expect(hours.getByRole('group', { name: 'Friday' })).toContainText('Day off.');
  await expect(hours.getByLabel('Saturday hours Start', { exact: true })).toHaveValue('08:00');
  await expect(hours.getByLabel('Saturday hours End', { exact: true })).toHaveValue('12:00');
  await expect(hours.getByRole('checkbox', { name: 'Repair' })).toBeChecked();
  await expect(hours.getByRole('checkbox', { name: 'Installation' })).not.toBeChecked();
  await expect(hours.getByRole('checkbox', { name: 'Ductwork' })).not.toBeChecked();

  // Time off: whole days, and part of one day (refused first with its end before its start).
  const addTimeOff = technician.getByRole('form', { name: `Add time off for ${name}` });
  await expect(technician.getByText('No time off coming up.')).toBeVisible();
  await addTimeOff.getByLabel('First day').fill('2031-05-12');
  await addTimeOff.getByLabel('Last day').fill('2031-05-14');
  await addTimeOff.getByLabel('Reason').fill('Family visit');
  await addTimeOff.getByRole('button', { name: 'Add time off' }).click();
  await expect(technician.getByRole('status').filter({ hasText: 'Time off added: May 12, 2031 – May 14, 2031.' })).toBeVisible();
  const entries = technician.getByRole('list', { name: 'Time off' }).getByRole('listitem');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Family visit');

  await addTimeOff.getByRole('checkbox', { name: 'Part of a day' }).check();
  await addTimeOff.getByLabel('Day', { exact: true }).fill('2031-06-02');
  await addTimeOff.getByLabel('From').fill('13:00');
  await addTimeOff.getByLabel('Until').fill('12:00');
  await addTimeOff.getByRole('button', { name: 'Add time off' }).click();
  await expect(addTimeOff.getByLabel('Until')).toHaveAccessibleDescription(bookingMessages.rangeOrder);
  await expect(addTimeOff.getByLabel('Until')).toBeFocused();
  await addTimeOff.getByLabel('Until').fill('15:30');
  await addTimeOff.getByRole('button', { name: 'Add time off' }).click();
  await expect(technician.getByRole('status').filter({ hasText: 'Time off added: Jun 2, 2031, 13:00–15:30.' })).toBeVisible();
  await expect(entries).toHaveCount(2);
  // The form is empty again for the next time off.
  await expect(addTimeOff.getByRole('checkbox', { name: 'Part of a day' })).not.toBeChecked();
  await expect(addTimeOff.getByLabel('First day')).toHaveValue('');

  await technician.getByRole('button', { name: 'Remove time off May 12, 2031 – May 14, 2031' }).click();
  await expect(technician.getByRole('status').filter({ hasText: 'Time off removed: May 12, 2031 – May 14, 2031.' })).toBeVisible();
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Jun 2, 2031, 13:00–15:30');
  await expectNoSeriousA11yViolations(page);

  await page.reload();
  await openTechnician(page, name);
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Jun 2, 2031, 13:00–15:30');
});

test('fits a phone: no sideways scrolling with a technician open, and no serious accessibility problems', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page);
  const name = await addNamedTechnician(page);
  await page.goto('/admin/settings?tab=booking');
  await expect(page.getByRole('form', { name: 'Booking rules' })).toBeVisible();
  await openTechnician(page, name);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
});
