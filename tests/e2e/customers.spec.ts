import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import zlib from 'node:zlib';
import {
  customerCountLabel,
  customerMessages,
  type Customer,
  type CustomerInput,
  type CustomerListResponse,
  type CustomerProfileResponse,
} from '#shared/customer.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The customer screens against the real server and its demo customers. Journeys that change data
// work on customers they create themselves (unique names), so they run in parallel with the rest.

const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function createCustomer(request: APIRequestContext, input: Partial<CustomerInput> & { name: string }): Promise<Customer> {
  const response = await request.post('/api/admin/customers', {
    data: { phone: '(843) 555-0142', address: '42 Marsh Hen Ln', city: 'Bluffton', state: 'SC', type: 'residential', ...input },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { customer: Customer }).customer;
}

async function listCustomers(request: APIRequestContext, search = '', pageSize = 100): Promise<CustomerListResponse> {
  const response = await request.get(`/api/admin/customers?${new URLSearchParams({ search, page: '1', pageSize: String(pageSize) })}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as CustomerListResponse;
}

/** A demo customer with at least one work order (most have several). */
async function demoCustomerWithWorkOrders(request: APIRequestContext): Promise<CustomerProfileResponse> {
  for (const customer of (await listCustomers(request)).customers) {
    const response = await request.get(`/api/admin/customers/${customer.id}`);
    const profile = (await response.json()) as CustomerProfileResponse;
    if (profile.workOrders.length > 0) return profile;
  }
  throw new Error('no demo customer has work orders');
}

/** A valid PNG (solid orange, `size` x `size`), made on the fly. */
function pngImage(size = 16): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [0xc2, 0x41, 0x0c]).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A form control by its label; required fields' labels end in an asterisk that screen readers skip. */
const field = (scope: Page | Locator, label: string) => scope.getByLabel(new RegExp(`^${label}( \\*)?$`));
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search customers' });
const customerTable = (page: Page) => page.getByRole('table');

test.describe('customer directory', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('live search narrows the list, updates the count and the URL, and survives reload and back', async ({ page }) => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Customers' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Customer Directory' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add Customer' })).toHaveAttribute('href', '/admin/customers/new');
    await expect(page.getByText(/^[\d,]+ customers$/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A demo customer's full name; the server tells how many customers that search matches.
    const everyone = await listCustomers(page.request);
    const demo = everyone.customers.find((customer) => /^[A-Za-z.' &-]+$/.test(customer.name))!;
    const expected = await listCustomers(page.request, demo.name);
    expect(expected.total).toBeGreaterThan(0);
    expect(expected.total).toBeLessThan(everyone.total);

    await searchBox(page).fill(demo.name.toUpperCase()); // case-insensitive
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(demo.name.toUpperCase());
    await expect(page.getByText(customerCountLabel(expected.total), { exact: true })).toBeVisible();
    await expect(customerTable(page).locator('tbody tr')).toHaveCount(expected.total);
    await expect(customerTable(page)).toContainText(demo.name);

    // The row: type badge, tel: and mailto: links, the address, and both actions.
    const row = customerTable(page).locator('tbody tr').filter({ hasText: demo.name }).first();
    await expect(row.getByText(demo.type === 'commercial' ? 'Commercial' : 'Residential')).toBeVisible();
    await expect(row.getByRole('link', { name: demo.phone })).toHaveAttribute('href', /^tel:\+?\d+$/);
    if (demo.email) await expect(row.getByRole('link', { name: demo.email })).toHaveAttribute('href', `mailto:${demo.email}`);
    else await expect(row.getByText(customerMessages.notProvided)).toBeVisible();
    await expect(row).toContainText(demo.address);
    await expect(row).toContainText(`${demo.city}, ${demo.state}`);
    await expect(row.getByRole('link', { name: /^Work Order/ })).toHaveAttribute('href', `/admin/workorders/new?customer=${demo.id}`);

    // Reload keeps the search; View opens the profile; Back returns to the same search.
    await page.reload();
    await expect(searchBox(page)).toHaveValue(demo.name.toUpperCase());
    await expect(page.getByText(customerCountLabel(expected.total), { exact: true })).toBeVisible();
    await customerTable(page).getByRole('link', { name: `View ${demo.name}` }).first().click();
    await expect(page).toHaveURL(new RegExp(`/admin/customers/${demo.id}$`));
    await page.goBack();
    await expect(searchBox(page)).toHaveValue(demo.name.toUpperCase());
    await expect(customerTable(page)).toContainText(demo.name);

    // Nonsense finds nothing.
    await searchBox(page).fill('zzqx nothing matches this 9731');
    await expect(page.getByText(customerMessages.noResultsTitle)).toBeVisible();
    await expect(page.getByText(customerMessages.noResultsText)).toBeVisible();
    await expect(page.getByText(customerCountLabel(0), { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Clearing the box brings everyone back and drops the query from the URL.
    await searchBox(page).fill('');
    await expect(page).toHaveURL(/\/admin\/customers$/);
    await expect(page.getByText(/^[\d,]+ customers$/)).toBeVisible();
  });

  test('pages through the customers on the server', async ({ page }) => {
    const { total, pageSize } = await listCustomers(page.request, '', 50);
    test.skip(total <= pageSize, 'needs more than one page of customers');
    await page.goto('/admin/customers');
    const pages = page.getByRole('navigation', { name: 'Customer pages' });
    await expect(pages.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await expect(customerTable(page).locator('tbody tr')).toHaveCount(pageSize);
    await pages.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(pages.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await expect(pages.getByRole('button', { name: 'Previous' })).toBeEnabled();
    await page.goBack();
    await expect(pages.getByText(/^Page 1 of \d+$/)).toBeVisible();
  });

  test('a failed load is shown with a retry', async ({ page }) => {
    // No live stream: its (re)connection would refetch by itself, and this is about the button.
    await page.route('**/api/admin/events', (route) => route.abort());
    let failures = 1;
    await page.route('**/api/admin/customers?*', async (route) => {
      if (failures-- > 0) await route.fulfill({ status: 500, json: { error: { code: 'INTERNAL', message: 'An unexpected error occurred.' } } });
      else await route.continue();
    });
    await page.goto('/admin/customers');
    await expect(page.getByRole('alert')).toContainText('Customers could not be loaded.');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText(/^[\d,]+ customers$/)).toBeVisible();
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the table becomes cards and nothing scrolls sideways', async ({ page }) => {
      await page.goto('/admin/customers');
      await expect(page.getByText(/^[\d,]+ customers$/)).toBeVisible();
      await expect(customerTable(page)).toBeHidden();
      const cards = page.getByRole('list', { name: 'Customers' }).getByRole('listitem');
      await expect(cards.first()).toBeVisible();
      await expect(cards.first().getByRole('link', { name: /^View / })).toBeVisible();
      await expect(cards.first().getByRole('link', { name: /^Work Order/ })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectNoSeriousA11yViolations(page);
      await cards.first().getByRole('link', { name: /^View / }).click();
      await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
});

test.describe('new customer', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('required fields first, then a saved customer is listed', async ({ page }) => {
    await page.goto('/admin/customers');
    await page.getByRole('link', { name: 'Add Customer' }).click();
    await expect(page).toHaveURL(/\/admin\/customers\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'New Customer' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Basic Information' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'HVAC Equipment' })).toBeVisible();
    // Spec defaults.
    await expect(field(page, 'City')).toHaveValue('Bluffton');
    await expect(field(page, 'State')).toHaveValue('SC');
    await expect(field(page, 'Type')).toHaveValue('residential');
    await expect(page.getByLabel('Has indoor unit')).not.toBeChecked();
    await expect(page.getByLabel('Has outdoor unit')).not.toBeChecked();

    await page.getByRole('button', { name: 'Create Customer' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page.getByText('Phone is required')).toBeVisible();
    await expect(page.getByText('Address is required')).toBeVisible();
    const name = field(page, 'Name');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription('Name is required');
    await expect(name).toBeFocused();
    await expect(page).toHaveURL(/\/admin\/customers\/new$/);
    await expectNoSeriousA11yViolations(page);

    // Editing a field clears its error; a bad e-mail is caught before sending.
    const customerName = uniqueName('E2E New Customer');
    await name.fill(customerName);
    await expect(page.getByText('Name is required')).toBeHidden();
    await field(page, 'Phone').fill('843-555-0199');
    await field(page, 'Email').fill('not-an-email');
    await field(page, 'Address').fill('7 Oyster Shell Ct');
    await page.getByRole('button', { name: 'Create Customer' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(field(page, 'Email')).toBeFocused();

    await field(page, 'Email').fill('new.customer@example.com');
    await page.getByLabel('ZIP Code').fill('29910');
    await field(page, 'Type').selectOption('commercial');
    await page.getByLabel('Has indoor unit').check();
    await page.getByLabel('Brand').fill('Carrier');
    await page.getByLabel('Install Date').fill('2021-06-15');
    await page.getByLabel('Refrigerant').selectOption('R-410A');
    await page.getByLabel('Tonnage').selectOption('3.5');

    // 'Saving...' while the request is out.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/customers', async (route) => {
      if (route.request().method() === 'POST') await released;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Create Customer' }).click();
    await expect(page.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    release();

    await expect(page).toHaveURL(/\/admin\/customers$/);
    await expect(page.getByText(`Customer ${customerName} was added.`)).toBeVisible();
    await searchBox(page).fill(customerName);
    await expect(page.getByText(customerCountLabel(1), { exact: true })).toBeVisible();
    const row = customerTable(page).locator('tbody tr').filter({ hasText: customerName });
    await expect(row).toContainText('Commercial');
    await expect(row).toContainText('new.customer@example.com');
    await expect(row).toContainText('Bluffton, SC 29910');
    await row.getByRole('link', { name: /^View/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: customerName })).toBeVisible();
    const equipment = page.getByRole('region', { name: 'HVAC Equipment' });
    await expect(equipment).toContainText('Carrier');
    await expect(equipment).toContainText('Jun 15, 2021');
    await expect(equipment).toContainText('R-410A');
    await expect(equipment).toContainText('3.5 tons');
  });

  test('Cancel returns to the directory; a network failure shows the unexpected-error message', async ({ page }) => {
    await page.goto('/admin/customers/new');
    await field(page, 'Name').fill(uniqueName('E2E Offline'));
    await field(page, 'Phone').fill('843-555-0100');
    await field(page, 'Address').fill('1 Nowhere Rd');
    await page.route('**/api/admin/customers', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Create Customer' }).click();
    await expect(page.getByRole('alert')).toHaveText(customerMessages.unexpected);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/admin\/customers$/);
  });

  test("the server's field problems show under the fields", async ({ page }) => {
    await page.goto('/admin/customers/new');
    await field(page, 'Name').fill(uniqueName('E2E Refused'));
    await field(page, 'Phone').fill('843-555-0100');
    await field(page, 'Address').fill('1 Refused Rd');
    await page.route('**/api/admin/customers', (route) =>
      route.fulfill({
        status: 400,
        json: { error: { code: 'VALIDATION_FAILED', message: 'phone: Not a number we can call', details: [{ path: 'phone', message: 'Not a number we can call' }] } },
      }),
    );
    await page.getByRole('button', { name: 'Create Customer' }).click();
    const phone = field(page, 'Phone');
    await expect(phone).toHaveAccessibleDescription('Not a number we can call');
    await expect(phone).toBeFocused();
  });
});

test.describe('customer profile', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('shows the details; Cancel reverts an edit and Save Changes persists it', async ({ page }) => {
    const name = uniqueName('E2E Profile');
    const customer = await createCustomer(page.request, { name, notes: 'Gate code 2468', unitBrand: 'Trane', tonnage: '3' });
    await page.goto(`/admin/customers/${customer.id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const contact = page.getByRole('region', { name: 'Contact Information' });
    await expect(contact.getByRole('link', { name: '(843) 555-0142' })).toHaveAttribute('href', 'tel:8435550142');
    await expect(contact.getByText(customerMessages.notProvided)).toBeVisible();
    const address = contact.getByRole('link', { name: /42 Marsh Hen Ln/ });
    await expect(address).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=42%20Marsh%20Hen%20Ln/);
    await expect(address).toHaveAttribute('target', '_blank');
    await expect(address).toHaveAttribute('rel', /noopener/);
    await expect(contact).toContainText('Gate code 2468');
    await expect(page.getByRole('region', { name: 'HVAC Equipment' })).toContainText('3 tons');
    await expect(page.getByRole('region', { name: 'Equipment Photos' })).toContainText(customerMessages.noPhotos);
    await expect(page.getByRole('link', { name: 'New Work Order' })).toHaveAttribute('href', `/admin/workorders/new?customer=${customer.id}`);
    await expectNoSeriousA11yViolations(page);

    // Edit, then Cancel: nothing changed, and the form starts from the saved values again.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await expect(page.getByRole('heading', { name: 'Basic Information' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'HVAC Equipment' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Equipment Photos' })).toBeVisible();
    await expect(field(page, 'Email')).toHaveValue('');
    await field(page, 'Name').fill(`${name} (not saved)`);
    await page.getByLabel('Notes').fill('Discarded note');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    await expect(contact).toContainText('Gate code 2468');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await expect(field(page, 'Name')).toHaveValue(name);
    await expect(page.getByLabel('Notes')).toHaveValue('Gate code 2468');
    await expectNoSeriousA11yViolations(page);

    // A required field left empty is caught; then Save Changes persists.
    await field(page, 'Phone').fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Phone is required')).toBeVisible();
    const renamed = `${name} Renamed`;
    await field(page, 'Name').fill(renamed);
    await field(page, 'Phone').fill('(843) 555-0177');
    await field(page, 'Email').fill('renamed@example.com');
    await page.getByLabel('Notes').fill('Side gate, code 1357');
    await page.getByLabel('Has outdoor unit').check();
    await page.getByLabel('Tonnage').selectOption('4');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
    await expect(page.getByText('Changes saved.')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await expect(contact.getByRole('link', { name: 'renamed@example.com' })).toHaveAttribute('href', 'mailto:renamed@example.com');
    await expect(contact.getByRole('link', { name: '(843) 555-0177' })).toBeVisible();
    await expect(contact).toContainText('Side gate, code 1357');
    await expect(page.getByRole('region', { name: 'HVAC Equipment' })).toContainText('4 tons');
  });

  test('a photo uploads at once, shows its thumbnail and can be removed', async ({ page }) => {
    const customer = await createCustomer(page.request, { name: uniqueName('E2E Photos') });
    await page.clock.install();
    await page.goto(`/admin/customers/${customer.id}`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const photos = page.getByRole('region', { name: 'Equipment Photos' });
    await expect(photos).toContainText(customerMessages.noPhotos);

    await photos.getByLabel('Add Photos').setInputFiles({ name: 'condenser.png', mimeType: 'image/png', buffer: pngImage() });
    await expect(photos.getByRole('status')).toHaveText(customerMessages.uploadSucceeded);
    const thumbnail = photos.getByRole('img', { name: 'Equipment photo 1' });
    await expect(thumbnail).toBeVisible();
    await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    // Spec 000 section 9: the message goes after 3 seconds.
    await page.clock.fastForward(3000);
    await expect(photos.getByText(customerMessages.uploadSucceeded)).toBeHidden();

    // Photos are stored at once: Cancel keeps it, and the view-mode gallery opens the display image.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await photos.getByRole('button', { name: 'Equipment photo 1' }).click();
    const viewer = page.getByRole('dialog', { name: 'Equipment photo 1 of 1' });
    await expect(viewer.getByRole('img', { name: 'Equipment photo 1' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await photos.getByRole('button', { name: 'Remove photo 1' }).click();
    await expect(photos).toContainText(customerMessages.noPhotos);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Equipment Photos' })).toContainText(customerMessages.noPhotos);
  });

  test('a refused upload shows the upload-failed message', async ({ page }) => {
    const customer = await createCustomer(page.request, { name: uniqueName('E2E Bad Photo') });
    await page.goto(`/admin/customers/${customer.id}`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Add Photos').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image') });
    await expect(page.getByRole('alert')).toContainText('Upload failed: ');
    await expect(page.getByRole('region', { name: 'Equipment Photos' })).toContainText(customerMessages.noPhotos);
  });

  test('Delete asks first, then removes a customer without work orders', async ({ page }) => {
    const name = uniqueName('E2E Delete');
    const customer = await createCustomer(page.request, { name });
    await page.goto(`/admin/customers/${customer.id}`);
    const deleteButton = page.getByRole('button', { name: 'Delete' });

    // The dialog: the spec's question, Cancel focused; Escape closes it and nothing happens.
    await deleteButton.click();
    const dialog = page.getByRole('dialog', { name: 'Delete customer' });
    await expect(dialog).toContainText(customerMessages.deleteConfirm);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(deleteButton).toBeFocused();

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/admin\/customers$/);
    await expect(page.getByText(`Customer ${name} was deleted.`)).toBeVisible();
    await searchBox(page).fill(name);
    await expect(page.getByText(customerMessages.noResultsTitle)).toBeVisible();
    expect((await page.request.get(`/api/admin/customers/${customer.id}`)).status()).toBe(404);
  });

  test('deleting a customer with work orders is refused with the spec message', async ({ page }) => {
    const profile = await demoCustomerWithWorkOrders(page.request);
    await page.goto(`/admin/customers/${profile.customer.id}`);
    const history = page.getByRole('region', { name: 'Work Order History' });
    const newest = profile.workOrders[0]!;
    await expect(history.getByRole('link', { name: /^View Details/ })).toHaveCount(profile.workOrders.length);
    await expect(history.getByRole('link', { name: /^View Details/ }).first()).toHaveAttribute('href', `/admin/workorders/${newest.id}`);
    await expect(history).toContainText(newest.title);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete customer' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alert')).toContainText(/^Error deleting customer: .+/);
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/admin/customers/${profile.customer.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: profile.customer.name })).toBeVisible();
  });

  test('an unknown id shows Customer not found with a way back', async ({ page }) => {
    await page.goto('/admin/customers/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: customerMessages.notFoundTitle })).toBeVisible();
    await expect(page.getByText(customerMessages.notFoundText)).toBeVisible();
    await page.getByRole('link', { name: 'Back to Customer Directory' }).click();
    await expect(page).toHaveURL(/\/admin\/customers$/);
  });
});

// Issue 15, decision 018-f: deleting customers and photos is for administrators; a dispatcher
// sees no Delete or Remove button (and the server answers 403 if asked anyway).
test.describe('as a dispatcher', () => {
  test('a dispatcher sees no Delete on the profile and no Remove on photos, but can still edit and add photos', async ({ page, browser }) => {
    await signIn(page);
    const id = uniqueName('dispatch').split(' ')[1]!;
    const dispatcher = { email: `dispatch.${id}@example.com`, password: 'spartina marsh at low tide' };
    const created = await page.request.post('/api/admin/settings/staff', {
      data: { email: dispatcher.email, name: `Dee Dispatch ${id}`, role: 'dispatcher', setup: 'password', password: dispatcher.password },
    });
    expect(created.status(), await created.text()).toBe(201);
    const customer = await createCustomer(page.request, { name: uniqueName('E2E Dispatcher View') });
    const uploaded = await page.request.post(`/api/admin/customers/${customer.id}/photos`, {
      multipart: { photos: { name: 'unit.png', mimeType: 'image/png', buffer: pngImage() } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);

    const dispatcherContext = await browser.newContext();
    try {
      const other = await dispatcherContext.newPage();
      await signIn(other, dispatcher);
      await other.goto(`/admin/customers/${customer.id}`);
      await expect(other.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
      await expect(other.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
      await expect(other.getByRole('button', { name: 'Delete' })).toHaveCount(0);

      await other.getByRole('button', { name: 'Edit Profile' }).click();
      const photos = other.getByRole('region', { name: 'Equipment Photos' });
      await expect(photos.getByRole('img', { name: 'Equipment photo 1' })).toBeVisible();
      await expect(photos.getByLabel('Add Photos')).toBeAttached();
      await expect(photos.getByRole('button', { name: /^Remove photo/ })).toHaveCount(0);
      // Asked anyway (an old tab, a crafted request), the server refuses.
      const refused = await other.request.delete(`/api/admin/customers/${customer.id}`);
      expect(refused.status()).toBe(403);
    } finally {
      await dispatcherContext.close();
    }

    // The admin still has both buttons.
    await page.goto(`/admin/customers/${customer.id}`);
    await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await expect(page.getByRole('region', { name: 'Equipment Photos' }).getByRole('button', { name: 'Remove photo 1' })).toBeVisible();
  });
});
