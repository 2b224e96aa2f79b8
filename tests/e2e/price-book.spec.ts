import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The price book (issue 20, decision 024-f): an admin adds an item, finds it by search, changes
// its price, imports a CSV whose error is shown by line and then a fixed one, and deactivates it.

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

test('adds, finds, reprices, imports (an error by line, then fixed) and deactivates price book items', async ({ page }) => {
  const id = suffix();
  const code = `E2E-CAP-${id}`;
  await signIn(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Price Book' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Price Book' })).toBeVisible();
  // The demo price book: the advertised $89 diagnostic is there.
  await page.getByLabel('Search code, name, category or description').fill('DIAG-STD');
  await expect(page.getByRole('row', { name: /DIAG-STD/ })).toContainText('$89.00');
  await expectNoSeriousA11yViolations(page);

  // Add an item: money typed as dollars, the margin follows.
  await page.getByRole('button', { name: 'Add item' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a price book item' });
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('Kind').selectOption('part');
  await dialog.getByLabel('Name').fill(`E2E capacitor ${id}`);
  await dialog.getByLabel('Category').fill('Electrical');
  await dialog.getByLabel('Price ($)').fill('95');
  await dialog.getByLabel('Cost ($)').fill('16.50');
  await expect(dialog.getByTestId('margin')).toHaveText('$78.50 (83%)');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Add item' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `${code} was added.` })).toBeVisible();

  // Find it by search (any case), edit its price.
  const search = page.getByLabel('Search code, name, category or description');
  await search.fill(code.toLowerCase());
  const row = page.getByRole('row', { name: new RegExp(code) });
  await expect(row).toContainText('$95.00');
  await expect(page.getByRole('status').filter({ hasText: '1 item' })).toBeVisible();
  await row.getByRole('button', { name: `Edit ${code}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit price book item' });
  await expect(edit.getByLabel('Price ($)')).toHaveValue('95.00');
  await edit.getByLabel('Price ($)').fill('abc');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByText('Enter a price in dollars, for example 89.00.')).toBeVisible();
  await expect(edit.getByLabel('Price ($)')).toHaveAttribute('aria-invalid', 'true');
  await edit.getByLabel('Price ($)').fill('99.50');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('$99.50');

  // Import: line 3 has a bad price; nothing is imported, the error names line 3 and the column.
  const importCode = `E2E-IMP-${id}`;
  const bad = ['code,name,kind,price,cost', `${code},E2E capacitor ${id},part,101.00,16.50`, `${importCode},Imported part ${id},part,12.345,3.00`].join('\r\n');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const importer = page.getByRole('dialog', { name: 'Import the price book from CSV' });
  await importer.getByLabel(/CSV file/).setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${bad}\r\n`) });
  await importer.getByRole('button', { name: 'Check file' }).click();
  await expect(importer.getByTestId('import-summary')).toHaveText('0 new, 1 updated, 1 error');
  const errorRow = importer.getByRole('row', { name: /Line 3/ });
  await expect(errorRow).toContainText('price');
  await expect(errorRow).toContainText('Enter a price in dollars');
  await expect(importer.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);

  // Fixed: the preview, then the import.
  const good = bad.replace('12.345', '12.35');
  await importer.getByLabel(/CSV file/).setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(`${good}\r\n`) });
  await importer.getByRole('button', { name: 'Check file' }).click();
  await expect(importer.getByTestId('import-summary')).toHaveText('1 new, 1 updated, 0 errors');
  await expect(importer.getByRole('row', { name: new RegExp(importCode) })).toContainText('New');
  await importer.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importer).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Imported: 1 new, 1 updated, 0 errors.' })).toBeVisible();
  await expect(row).toContainText('$101.00');
  await search.fill(importCode);
  await expect(page.getByRole('row', { name: new RegExp(importCode) })).toContainText('$12.35');

  // Deactivate: it leaves the active list and shows under Inactive.
  await search.fill(code);
  await row.getByRole('button', { name: `Deactivate ${code}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${code} was deactivated.` })).toBeVisible();
  await expect(row).toBeHidden();
  await page.getByLabel('Status').selectOption('inactive');
  await expect(page.getByRole('row', { name: new RegExp(code) })).toContainText('Inactive');
});

test('Settings → Billing: the 7% default tax rate, payment terms saved, a rate added; the price book works on a phone', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/settings?tab=billing');
  await expect(page.getByRole('heading', { name: 'Invoices and quotes' })).toBeVisible();
  const rates = page.getByRole('region', { name: 'Sales tax rates' });
  await expect(rates.getByRole('listitem').filter({ hasText: 'SC 6% + Beaufort County 1%' })).toContainText('7%');
  await expect(rates.getByRole('listitem').filter({ hasText: 'SC 6% + Beaufort County 1%' })).toContainText('Default');
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Payment terms (days)').fill('400');
  await page.getByRole('button', { name: 'Save billing settings' }).click();
  await expect(page.getByText('Enter payment terms from 0 (due on receipt) to 365 days.')).toBeVisible();
  await page.getByLabel('Payment terms (days)').fill('15');
  await page.getByRole('button', { name: 'Save billing settings' }).click();
  await expect(page.getByText('Billing settings saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Payment terms (days)')).toHaveValue('15');

  const name = `Jasper County ${suffix()}`;
  const add = page.getByRole('form', { name: 'Add a tax rate' });
  await add.getByLabel('Name').fill(name);
  await add.getByLabel('Rate (%)').fill('7.5');
  await add.getByRole('button', { name: 'Add rate' }).click();
  await expect(rates.getByRole('listitem').filter({ hasText: name })).toContainText('7.5%');

  // A phone: the screen's controls fit, the table scrolls inside its box, the dialog is usable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/price-book');
  await expect(page.getByRole('heading', { level: 1, name: 'Price Book' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Add item' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a price book item' });
  await expect(dialog.getByLabel('Price ($)')).toBeInViewport();
  await expectNoSeriousA11yViolations(page);
});
