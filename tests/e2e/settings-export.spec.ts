import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import type { InvoiceDetailResponse } from '#shared/invoice.ts';
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

// The billing files (issue 20, decision 025-b): an invoice made through the API, then the invoices
// CSV over a date range and the QuickBooks Online file downloaded from the panel, the second by keyboard.
test('an admin downloads the invoices CSV over a date range and the QuickBooks file by keyboard', async ({ page }) => {
  await signIn(page);
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const customerName = `Export, "Journey" ${id}`;
  const customerResponse = await page.request.post('/api/admin/customers', {
    data: { name: customerName, phone: '(843) 555-0177', address: '9 Marsh Hen Dr', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const customer = ((await customerResponse.json()) as { customer: Customer }).customer;
  const created = await page.request.post('/api/admin/invoices', {
    data: {
      customerId: customer.id,
      lines: [
        { name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900 },
        { name: 'Capacitor 45/5 MFD', quantityMilli: 2000, unitPriceCents: 14500 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoiceId = ((await created.json()) as InvoiceDetailResponse).invoice.id;
  expect((await page.request.post(`/api/admin/invoices/${invoiceId}/issue`)).status()).toBe(200);
  const { invoice } = (await (await page.request.get(`/api/admin/invoices/${invoiceId}`)).json()) as InvoiceDetailResponse;
  const issuedOn = invoice.issuedOn!;

  await page.goto('/admin/settings?tab=data');
  await expect(page.getByRole('heading', { name: 'Billing exports for your accountant' })).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill(issuedOn);
  await page.getByLabel('To', { exact: true }).fill(issuedOn);
  await expectNoSeriousA11yViolations(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download invoices (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`invoices-${issuedOn}-to-${issuedOn}.csv`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFFNumber,Kind,Status,Customer,Issued on,Due on,Subtotal,')).toBe(true);
  // Quoted (a comma and quotes in the name), dollars with two decimals: 89.00 + 2 x 145.00.
  expect(text).toContain(`${invoice.invoiceNumber},invoice,sent,"Export, ""Journey"" ${id}",${issuedOn},${invoice.dueOn},379.00,0.00,0.00,379.00,0.00,379.00,`);

  const quickBooks = page.getByRole('link', { name: 'Download QuickBooks invoices (CSV)' });
  await quickBooks.focus();
  const downloadingQuickBooks = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const quickBooksText = fs.readFileSync((await (await downloadingQuickBooks).path())!, 'utf8');
  const us = `${issuedOn.slice(5, 7)}/${issuedOn.slice(8, 10)}/${issuedOn.slice(0, 4)}`;
  expect(quickBooksText.startsWith('\uFEFF*InvoiceNo,*Customer,*InvoiceDate,*DueDate,Terms,')).toBe(true);
  const lines = quickBooksText.split('\r\n').filter((line) => line.startsWith(`${invoice.invoiceNumber},`));
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,"Export, ""Journey"" ${id}",${us},`);
  expect(lines[1]).toContain(',Capacitor 45/5 MFD,Capacitor 45/5 MFD,2,145.00,290.00,N,,');
});
