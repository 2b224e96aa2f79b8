import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Settings > Export & backup (issue 10): a plain link downloads the CSV with the session cookie.
test('an admin downloads the customers CSV from Settings > Export & backup', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/settings?tab=data');
  await expect(page.getByRole('heading', { name: 'Export to a spreadsheet' })).toBeVisible();
  await expect(page.getByText('npm run db:backup -- --out /backups/hvac-backup.tar.gz')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download customers (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFFCustomer ID,Name,Type,Phone,Email,')).toBe(true);
  // The demo data's customers, one record each after the header (CRLF line ends).
  expect(text.split('\r\n').filter((line) => /^[0-9a-f]{8}-/.test(line)).length).toBeGreaterThan(10);
});
