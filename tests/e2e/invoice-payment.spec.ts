import { devices, expect, test } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import type { InvoiceDetailResponse } from '#shared/invoice.ts';
import { formatCents } from '#shared/money.ts';
import { expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

// The customer's side of an invoice (issue 20, decision 024-h) against the real server and the fake
// Stripe that playwright.config.ts starts beside it: the office issues an invoice, the messaging
// runner e-mails its link, the customer opens it on a phone, pays on the (fake) hosted page, comes
// back to "paid", and the office's invoice shows Paid.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The invoice link's path in an .eml file (its text part may be quoted-printable). */
function invoicePathIn(mail: string): string | undefined {
  const decoded = mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return /https?:\/\/[^/\s]+(\/invoice\/[A-Za-z0-9_-]{43})/.exec(decoded)?.[1];
}

test('an issued invoice is e-mailed, opened on a phone, paid by card online, and shows Paid to the customer and the office', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const id = unique();
  const email = `pay.${id}@example.com`;
  const customerResponse = await page.request.post('/api/admin/customers', {
    data: { name: `Pay Customer ${id}`, phone: '(843) 555-0166', email, address: '3 Pluff Mud Ct', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const customer = ((await customerResponse.json()) as { customer: Customer }).customer;
  const created = await page.request.post('/api/admin/invoices', {
    data: {
      customerId: customer.id,
      lines: [
        { name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900 },
        { name: 'Capacitor 45/5 MFD', quantityMilli: 1000, unitPriceCents: 14500 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoiceId = ((await created.json()) as InvoiceDetailResponse).invoice.id;
  const total = formatCents(23400);

  // The office issues it from the invoice screen: it says the e-mail went, and the text did not.
  await page.goto(`/admin/invoices/${invoiceId}`);
  await page.getByRole('button', { name: 'Issue invoice' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Issue invoice' }).click();
  await expect(page.getByText(/Invoice issued\. Sent by e-mail\. Not by text: the customer has not agreed to texts\./)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download PDF' })).toBeVisible();

  // The messaging runner sends it: the e-mail with the link lands in the outbox.
  await expect.poll(() => outboxMailsMentioning(email).filter((mail) => invoicePathIn(mail)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const linkPath = invoicePathIn(outboxMailsMentioning(email).find((mail) => invoicePathIn(mail))!)!;

  // The customer, on a phone, with no staff session.
  const phone = await browser.newContext({ ...devices['Pixel 7'], baseURL: test.info().project.use.baseURL });
  const customerPage = await phone.newPage();
  const response = await customerPage.goto(linkPath);
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(customerPage.getByRole('heading', { level: 2, name: `Amount due: ${total}` })).toBeVisible();
  await expect(customerPage.getByText(`Pay Customer ${id}`).first()).toBeVisible();
  await expectNoSeriousA11yViolations(customerPage);

  await customerPage.getByRole('button', { name: `Pay ${total} by card` }).click();
  // Stripe's hosted page (the fake's): the test card, then Pay.
  await expect(customerPage.getByLabel('Card number')).toBeVisible();
  await customerPage.getByRole('button', { name: `Pay ${total}` }).click();

  // Back on the invoice page: the webhook has recorded the payment.
  await expect(customerPage).toHaveURL(/\/invoice\/[A-Za-z0-9_-]{43}\?checkout=cs_test_/);
  await expect(customerPage.getByText('Thank you: your payment has been received.')).toBeVisible();
  await expect(customerPage.getByRole('heading', { level: 2, name: 'Paid in full' })).toBeVisible();
  await expect(customerPage.getByRole('button', { name: /by card/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(customerPage);
  await phone.close();

  // The office's invoice follows (live update, or on the next load).
  await expect(page.getByText('Card (online)').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 }).locator('..').getByText('Paid', { exact: true })).toBeVisible();
});
