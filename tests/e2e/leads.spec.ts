import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { leadMessages, type LeadListResponse } from '#shared/lead.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The lead management screen against the real server and its demo data (leads in every status,
// chat leads). Journeys that change data work on leads they submit themselves (unique names).

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const randomPhone = () => `843-555-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;

async function listLeads(request: APIRequestContext, params: Record<string, string>): Promise<LeadListResponse> {
  const response = await request.get(`/api/admin/leads?${new URLSearchParams({ pageSize: '100', ...params })}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as LeadListResponse;
}

/** A request as a visitor sends it from the website. */
async function submitEstimate(request: APIRequestContext, name: string, serviceType = 'maintenance'): Promise<void> {
  const response = await request.post('/api/public/estimate-requests', {
    data: { name, email: 'lead.journey@example.com', phone: randomPhone(), address: '3 Marsh Rd, Bluffton, SC 29910', serviceType, description: 'Yearly tune-up please.' },
  });
  expect(response.status(), await response.text()).toBe(201);
}

const leadCards = (page: Page) => page.getByRole('list', { name: 'Leads' }).getByRole('listitem');
const tab = (page: Page, label: string) => page.getByRole('navigation', { name: 'Lead filters' }).getByRole('link', { name: new RegExp(`^${label}\\b`) });

test.describe('lead management', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('the dashboard link ?filter=urgent opens the Urgent tab, and the tabs keep their filter in the URL', async ({ page }) => {
    await page.goto('/admin/estimates?filter=urgent');
    await expect(page.getByRole('heading', { name: 'Lead Management', level: 1 })).toBeVisible();
    await expect(tab(page, 'Urgent')).toHaveAttribute('aria-current', 'page');
    await expect(leadCards(page).first()).toBeVisible();
    const urgent = await listLeads(page.request, { filter: 'urgent' });
    expect(urgent.total).toBeGreaterThan(0);
    for (const lead of urgent.leads) expect(lead.priority).toBe('urgent');
    await expect(leadCards(page)).toHaveCount(Math.min(urgent.total, 25));
    // Every card of the tab is urgent.
    await expect(leadCards(page).filter({ hasNotText: 'Urgent' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await tab(page, 'Contacted').click();
    await expect(page).toHaveURL(/[?&]filter=contacted/);
    await expect(tab(page, 'Contacted')).toHaveAttribute('aria-current', 'page');
    await expect(leadCards(page).first()).toBeVisible();
    await expect(leadCards(page).filter({ hasNotText: 'Contacted' })).toHaveCount(0);

    await tab(page, 'Converted').click();
    await expect(page).toHaveURL(/[?&]filter=converted/);
    await expect(leadCards(page).first()).toBeVisible();
    await expect(leadCards(page).filter({ hasNotText: 'Converted' })).toHaveCount(0);

    await tab(page, 'Active').click();
    await expect(page).not.toHaveURL(/filter=/);
    await expect(tab(page, 'Active')).toHaveAttribute('aria-current', 'page');

    // The metrics come from the data and explain themselves on focus.
    const help = page.getByRole('button', { name: 'How Conversion Rate is measured' });
    await help.focus();
    await expect(page.getByRole('tooltip', { name: /divided by all estimate requests/ })).toBeVisible();
  });

  test('lists chat leads with their score and urgency, and shows their customer and conversation', async ({ page }) => {
    const chatLeads = (await listLeads(page.request, { filter: 'all', pageSize: '100' })).leads.filter((lead) => lead.kind === 'chat' && lead.customer);
    expect(chatLeads.length).toBeGreaterThan(0);
    const lead = chatLeads[0]!;
    await page.goto(`/admin/estimates?filter=all&search=${encodeURIComponent(lead.customer!.name)}`);
    const card = leadCards(page).filter({ hasText: 'Chat lead' }).first();
    await expect(card).toContainText(`Score ${lead.leadScore}/10`);
    await expect(card).toContainText(`Urgency ${lead.urgency}`);
    await card.getByRole('button', { name: /View details/i }).click();
    const panel = page.getByRole('article');
    await expect(panel.getByText('Chat lead (AI assistant)')).toBeVisible();
    await expect(panel.getByRole('link', { name: lead.customer!.name })).toHaveAttribute('href', `/admin/customers/${lead.customer!.id}`);
    await expect(panel.getByRole('region', { name: 'Conversation' })).toBeVisible();
    await expect(panel.getByLabel('Status')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('works at 375 px without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/admin/estimates');
    await expect(leadCards(page).first()).toBeVisible();
    await leadCards(page).first().getByRole('button', { name: /View details/i }).click();
    await expect(page.getByRole('article')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('changes a status from the details panel, and says so when it fails', async ({ page }) => {
    const name = unique('Status Journey');
    await submitEstimate(page.request, name);
    await page.goto(`/admin/estimates?search=${encodeURIComponent(name)}`);
    await expect(leadCards(page)).toHaveCount(1);
    await leadCards(page).first().getByRole('button', { name: /View details/i }).click();
    const status = page.getByRole('article').getByLabel('Status');
    await expect(status).toHaveValue('pending');

    await expectNoSeriousA11yViolations(page);
    await status.selectOption('contacted');
    await expect.poll(async () => (await listLeads(page.request, { filter: 'contacted', search: name })).total).toBe(1);
    // Still in the details panel (it follows the lead), with the saved value.
    await expect(status).toHaveValue('contacted');

    await page.route('**/api/admin/leads/estimate/*/status', (route) => route.fulfill({ status: 500, json: { error: { code: 'INTERNAL', message: 'boom' } } }));
    await status.selectOption('quoted');
    await expect(page.getByRole('alert').filter({ hasText: leadMessages.statusUpdateFailed })).toBeVisible();
    await page.unroute('**/api/admin/leads/estimate/*/status');
    await expect(status).toHaveValue('contacted');
  });

  test('converts a lead from the public estimate form into a work order and lands on it', async ({ page }) => {
    const name = unique('Convert Journey');
    await page.goto('/estimate');
    await page.getByLabel('Full Name').fill(name);
    await page.getByLabel('Email').fill(`${name.replace(/\W+/g, '.').toLowerCase()}@example.com`);
    await page.getByLabel('Phone').fill(randomPhone());
    await page.getByLabel('Service Address').fill('42 Palmetto Bluff Rd, Bluffton, SC 29910');
    await page.getByLabel('Service Type').selectOption('ac-repair');
    await page.getByLabel('Tell us about your project').fill('AC blows warm air since Monday.');
    await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    await page.goto(`/admin/estimates?filter=urgent&search=${encodeURIComponent(name)}`);
    await expect(leadCards(page)).toHaveCount(1);
    await leadCards(page).first().getByRole('button', { name: /View details/i }).click();
    await page.getByRole('button', { name: 'Qualify & Convert to Work Order' }).click();

    const dialog = page.getByRole('dialog', { name: 'Qualify & Convert to Work Order' });
    await expect(dialog.getByLabel(/^Title/)).toHaveValue(`AC Repair for ${name}`);
    await expect(dialog.getByLabel(/^Service Type/)).toHaveValue('repair');
    await expect(dialog.getByLabel(/^Priority/)).toHaveValue('high');
    await expect(dialog.getByLabel('Description (Required)')).toHaveValue('AC blows warm air since Monday.');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByLabel(/^Title/).fill(`Diagnose AC for ${name}`);
    await dialog.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(dialog).toHaveCount(0);

    const link = page.getByRole('link', { name: /^Open work order WO-\d+/ });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/admin\/workorders\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: `Diagnose AC for ${name}` })).toBeVisible();

    // The lead is converted: out of the open tabs, in Converted.
    const converted = await listLeads(page.request, { filter: 'converted', search: name });
    expect(converted.leads).toHaveLength(1);
    expect(converted.leads[0]!.workOrder).not.toBeNull();
  });

  test('converts a lead for another existing customer found in the dialog', async ({ page }) => {
    const customerName = unique('Picked Customer');
    const created = await page.request.post('/api/admin/customers', {
      data: { name: customerName, phone: '(843) 555-0123', address: '8 Cedar Ln', city: 'Bluffton', state: 'SC', type: 'residential' },
    });
    expect(created.status()).toBe(201);
    const customerId = ((await created.json()) as { customer: { id: string } }).customer.id;
    const leadName = unique('Pick Journey');
    await submitEstimate(page.request, leadName, 'ductwork');

    await page.goto(`/admin/estimates?search=${encodeURIComponent(leadName)}`);
    await leadCards(page).first().getByRole('button', { name: /View details/i }).click();
    await page.getByRole('button', { name: 'Qualify & Convert to Work Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Qualify & Convert to Work Order' });
    await dialog.getByRole('radio', { name: /Use an existing customer/ }).check();
    await dialog.getByLabel(/Find another customer/).fill(customerName);
    await dialog.getByRole('list', { name: 'Matching customers' }).getByRole('button', { name: new RegExp(customerName) }).click();
    await expect(dialog.getByRole('radio', { name: new RegExp(`Use an existing customer: ${customerName}`) })).toBeChecked();
    await dialog.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(dialog).toHaveCount(0);

    const converted = await listLeads(page.request, { filter: 'converted', search: leadName });
    expect(converted.leads[0]?.customer?.id).toBe(customerId);
    await expect(page.getByRole('article').getByRole('link', { name: customerName })).toHaveAttribute('href', `/admin/customers/${customerId}`);
  });
});
