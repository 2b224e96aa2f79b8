import { expect, test, type Page } from '@playwright/test';
import { bookingMessages } from '#shared/booking.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Settings → Online booking (issue 21, decision 026-c): the booking rules are saved and kept; a
// technician's hours, service types and time off are set; wrong values are refused at the field.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A technician of this test's own (the booking settings' technicians are every technician). */
async function addTechnician(page: Page): Promise<string> {
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
  const name = await addTechnician(page);
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
  const name = await addTechnician(page);
  await page.goto('/admin/settings?tab=booking');
  await expect(page.getByRole('form', { name: 'Booking rules' })).toBeVisible();
  await openTechnician(page, name);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
});
