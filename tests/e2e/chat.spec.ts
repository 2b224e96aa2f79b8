import { expect, test, type Locator, type Page } from '@playwright/test';
import { chatMessages } from '#shared/chat.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The chat widget against the real server and its rule-based assistant. Each real message counts
// against the per-address chat limit (CHAT_MESSAGE_LIMIT, 20 a minute by default): the journeys
// below send about ten between them.

// The company profile the app was built with: the same variables, the same defaults.
const company = companyProfileFrom(companyEnvSchema.parse(process.env));
const todayInCompany = () => new Intl.DateTimeFormat('en-CA', { timeZone: company.timeZone }).format(new Date());
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const bubble = (page: Page) => page.getByRole('button', { name: 'Need Help?' });
const chatWindow = (page: Page) => page.getByRole('dialog', { name: 'HVAC Assistant' });
const messageBox = (chat: Locator) => chat.getByRole('textbox', { name: 'Message', exact: true });
const sendButton = (chat: Locator) => chat.getByRole('button', { name: 'Send', exact: true });
const conversation = (chat: Locator) => chat.getByRole('log');
const userMessages = (chat: Locator) => conversation(chat).locator('[data-sender="user"]');
const assistantMessages = (chat: Locator) => conversation(chat).locator('[data-sender="ai"]');

async function openChat(page: Page): Promise<Locator> {
  await bubble(page).click();
  const chat = chatWindow(page);
  await expect(chat).toBeVisible();
  return chat;
}

async function ask(chat: Locator, text: string): Promise<void> {
  const before = await assistantMessages(chat).count();
  await messageBox(chat).fill(text);
  await sendButton(chat).click();
  await expect(assistantMessages(chat)).toHaveCount(before + 1);
}

/** Holds every request to `url` until the returned function is called, then lets it through. */
async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function openScheduleForm(chat: Locator): Promise<Locator> {
  await chat.getByRole('button', { name: 'Schedule Service' }).click();
  const form = chat.getByRole('region', { name: 'Schedule Service' });
  await expect(form).toBeVisible();
  return form;
}

/**
 * Each booking gets its own phone and e-mail: the server finds returning customers by either, so
 * journeys running side by side on one database must not look like the same person.
 */
function uniqueContact(): { phone: string; email: string } {
  const digits = String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0');
  // 7xx exchanges: never the demo data's 555 numbers.
  return { phone: `(843) 7${digits.slice(1, 3)}-${digits.slice(3)}`, email: `chat.${digits}@example.com` };
}

async function fillValidBooking(form: Locator, name: string): Promise<void> {
  const contact = uniqueContact();
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Phone').fill(contact.phone);
  await form.getByLabel('Email').fill(contact.email);
  await form.getByLabel('Service Address').fill('12 Marsh Hen Ln, Bluffton, SC 29910');
  await form.getByLabel('Service Type').selectOption('repair');
  await form.getByLabel('Describe the problem').fill('Upstairs unit blows warm air.');
}

test.describe('chat widget', () => {
  test("the window's code loads only when the visitor asks for it; it opens with the greeting and takes focus; Escape closes it", async ({
    page,
  }) => {
    const windowScripts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('chat-window')) windowScripts.push(request.url());
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto('/');
    await expect(bubble(page)).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(windowScripts).toEqual([]);
    await expect(chatWindow(page)).toHaveCount(0);

    const chat = await openChat(page);
    expect(windowScripts.length).toBeGreaterThan(0);
    await expect(chat.getByRole('heading', { name: 'HVAC Assistant' })).toBeVisible();
    await expect(chat.getByText('Online', { exact: true })).toBeVisible();
    await expect(assistantMessages(chat).first()).toContainText(chatMessages.greeting(company.name));
    await expect(messageBox(chat)).toBeFocused();
    await expect(sendButton(chat)).toBeDisabled();

    await page.keyboard.press('Escape');
    await expect(chatWindow(page)).toHaveCount(0);
    await expect(bubble(page)).toBeFocused();

    // Keyboard only: Enter on the focused bubble opens it again; the close button closes it.
    await page.keyboard.press('Enter');
    await expect(chatWindow(page)).toBeVisible();
    await chatWindow(page).getByRole('button', { name: 'Close chat' }).click();
    await expect(chatWindow(page)).toHaveCount(0);
    await expect(bubble(page)).toBeFocused();
    // No Content-Security-Policy violation (zod's eval probe) or other error on the way.
    expect(consoleErrors).toEqual([]);
  });

  test('a quick button fills the message box without sending; sending it gets the office hours', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    for (const question of ['What are your hours?', 'I need emergency service', "My AC isn't cooling"]) {
      await expect(chat.getByRole('button', { name: question })).toBeVisible();
    }
    await chat.getByRole('button', { name: 'What are your hours?' }).click();
    await expect(messageBox(chat)).toHaveValue('What are your hours?');
    await expect(userMessages(chat)).toHaveCount(0);

    await sendButton(chat).click();
    await expect(userMessages(chat).last()).toContainText('What are your hours?');
    await expect(messageBox(chat)).toHaveValue('');
    await expect(assistantMessages(chat).last()).toContainText('Mon-Fri 8AM-6PM');
  });

  test('Enter sends, Shift+Enter makes a new line, and nothing is sent for an empty or whitespace-only message', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    const box = messageBox(chat);

    await box.fill('   ');
    await expect(sendButton(chat)).toBeDisabled();
    await box.press('Enter');
    await expect(box).toHaveValue('   ');
    await expect(userMessages(chat)).toHaveCount(0);

    await box.fill('Do you service heat pumps?');
    await expect(sendButton(chat)).toBeEnabled();
    await box.press('Shift+Enter');
    await box.pressSequentially('We live in Bluffton.');
    await expect(box).toHaveValue('Do you service heat pumps?\nWe live in Bluffton.');
    await expect(userMessages(chat)).toHaveCount(0);

    await box.press('Enter');
    await expect(userMessages(chat)).toHaveCount(1);
    await expect(userMessages(chat).first()).toContainText('Do you service heat pumps?\nWe live in Bluffton.');
    await expect(box).toHaveValue('');
    await expect(assistantMessages(chat)).toHaveCount(2);
  });

  test('shows the typing indicator and disables Send while a reply is pending', async ({ page }) => {
    const release = await holdRequests(page, '**/api/public/chat/messages');
    await page.goto('/');
    const chat = await openChat(page);
    await messageBox(chat).fill('Do you offer maintenance plans?');
    await messageBox(chat).press('Enter');

    const typing = chat.getByRole('img', { name: 'Assistant is typing' });
    await expect(typing).toBeVisible();
    await messageBox(chat).fill('One more thing');
    await expect(sendButton(chat)).toBeDisabled();
    release();
    await expect(typing).toHaveCount(0);
    await expect(assistantMessages(chat)).toHaveCount(2);
    await expect(sendButton(chat)).toBeEnabled();
  });

  test('answers "I smell gas" with the safety script', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    await ask(chat, 'I smell gas');
    const reply = assistantMessages(chat).last();
    await expect(reply).toContainText(/leave|911/i);
    await expect(reply.getByRole('link', { name: `Call ${company.emergencyPhone}` })).toHaveAttribute('href', /^tel:/);
  });

  test('a reply that asks for the form opens Schedule Service; Cancel closes it', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    await ask(chat, "I'd like to schedule a maintenance visit");
    const form = chat.getByRole('region', { name: 'Schedule Service' });
    await expect(form).toBeVisible();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toHaveCount(0);
    await expect(messageBox(chat)).toBeFocused();
  });

  test('the Schedule Service form shows the exact validation messages and clears each when its field is edited', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    const form = await openScheduleForm(chat);
    await expect(form.getByLabel('Name')).toBeFocused();
    await expect(form.getByLabel('Preferred Date')).toHaveAttribute('min', todayInCompany());
    await expect(form.getByLabel('Service Type').locator('option:not([disabled])')).toHaveText(['Repair', 'Maintenance', 'Installation', 'Inspection']);

    const submit = form.getByRole('button', { name: 'Create Service Request' });
    await submit.click();
    for (const message of ['Name is required', 'Phone number is required', 'Address is required', 'Service type is required']) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(form.getByLabel('Name')).toBeFocused();
    await expect(form.getByLabel('Name')).toHaveAccessibleDescription('Name is required');

    await form.getByLabel('Phone').fill('555-12');
    await expect(form.getByText('Phone number is required')).toHaveCount(0);
    await form.getByLabel('Email').fill('not-an-address');
    await form.getByLabel('Preferred Date').fill('2020-01-15');
    await submit.click();
    await expect(form.getByText('Please enter a valid phone number', { exact: true })).toBeVisible();
    await expect(form.getByText('Please enter a valid email address', { exact: true })).toBeVisible();
    await expect(form.getByText('Preferred date cannot be before today', { exact: true })).toBeVisible();

    await form.getByLabel('Name').fill('Sam');
    await expect(form.getByText('Name is required')).toHaveCount(0);
    await form.getByLabel('Service Type').selectOption('maintenance');
    await expect(form.getByText('Service type is required')).toHaveCount(0);
    await expect(form.getByText('Address is required')).toBeVisible();
  });

  test('books a visit: Creating... with the form disabled, the work order number in the conversation, and the customer remembered', async ({ page }) => {
    const name = uniqueName('Chat Journey');
    const release = await holdRequests(page, '**/api/public/chat/bookings');
    await page.goto('/');
    const chat = await openChat(page);
    const form = await openScheduleForm(chat);
    await fillValidBooking(form, name);
    await form.getByRole('button', { name: 'Create Service Request' }).click();

    await expect(form.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    await expect(form.getByLabel('Name')).toBeDisabled();
    await expect(form.getByLabel('Service Type')).toBeDisabled();
    release();

    await expect(form).toHaveCount(0);
    await expect(assistantMessages(chat).last()).toContainText("Perfect! I've created work order WO-");
    await expect(assistantMessages(chat).last()).toContainText(company.phone);

    // Later messages carry the name the visitor booked under, and never a customer id (decision 018-a).
    const nextRequest = page.waitForRequest('**/api/public/chat/messages');
    await ask(chat, 'Thanks! Do you also clean ducts?');
    const body = (await nextRequest).postDataJSON() as { customer?: { id?: string; name: string } };
    expect(body.customer).toEqual({ name });

    // Staff see the booking in the back office: a new-lead notification naming the work order.
    const workOrderNumber = /WO-\d+/.exec((await assistantMessages(chat).filter({ hasText: 'Perfect!' }).last().textContent()) ?? '')?.[0];
    expect(workOrderNumber).toBeTruthy();
    await signIn(page);
    const response = await page.request.get('/api/admin/notifications');
    expect(response.status()).toBe(200);
    const { notifications } = (await response.json()) as { notifications: { type: string; data: Record<string, unknown> }[] };
    const notification = notifications.find((item) => item.data.work_order_number === workOrderNumber);
    expect(notification).toMatchObject({ type: 'new_ai_lead', data: { source: 'ai_chat', service_type: 'repair' } });
  });

  test('a booking that fails closes the form with the spec message; a retry sends the same Idempotency-Key', async ({ page }) => {
    const keys: string[] = [];
    let attempts = 0;
    await page.route('**/api/public/chat/bookings', async (route) => {
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      attempts += 1;
      if (attempts === 1) {
        await route.fulfill({ status: 503, json: { error: { code: 'INTERNAL', message: 'Service unavailable' } } });
      } else {
        await route.continue();
      }
    });
    await page.goto('/');
    const chat = await openChat(page);
    let form = await openScheduleForm(chat);
    await fillValidBooking(form, uniqueName('Retry Journey'));
    await form.getByRole('button', { name: 'Create Service Request' }).click();
    await expect(form).toHaveCount(0);
    await expect(assistantMessages(chat).last()).toContainText(chatMessages.bookingFailure(company.phone));

    // What was typed is kept; sending it again is the same submission.
    form = await openScheduleForm(chat);
    await expect(form.getByLabel('Service Address')).toHaveValue('12 Marsh Hen Ln, Bluffton, SC 29910');
    await form.getByRole('button', { name: 'Create Service Request' }).click();
    await expect(assistantMessages(chat).last()).toContainText("Perfect! I've created work order WO-");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\w-]{8,}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  test("the server's field messages show under the fields and keep the form open", async ({ page }) => {
    await page.route('**/api/public/chat/bookings', (route) =>
      route.fulfill({
        status: 400,
        json: { error: { code: 'VALIDATION_FAILED', message: 'phone: Please enter a valid phone number', details: [{ path: 'phone', message: 'Please enter a valid phone number' }] } },
      }),
    );
    await page.goto('/');
    const chat = await openChat(page);
    const form = await openScheduleForm(chat);
    await fillValidBooking(form, 'Server Says No');
    await form.getByRole('button', { name: 'Create Service Request' }).click();
    await expect(form.getByText('Please enter a valid phone number', { exact: true })).toBeVisible();
    await expect(form.getByLabel('Phone')).toBeFocused();
    await expect(form.getByRole('button', { name: 'Create Service Request' })).toBeEnabled();
  });

  test('when the assistant cannot answer, the conversation says to call', async ({ page }) => {
    await page.route('**/api/public/chat/messages', (route) =>
      route.fulfill({ status: 429, json: { error: { code: 'RATE_LIMITED', message: 'Too many requests' } } }),
    );
    await page.goto('/');
    const chat = await openChat(page);
    await messageBox(chat).fill('Hello?');
    await messageBox(chat).press('Enter');
    await expect(assistantMessages(chat).last()).toContainText(chatMessages.webhookFailure(company.phone));
    await expect(sendButton(chat)).toBeDisabled();
  });

  test('the conversation survives moving to another page and a reload', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    await ask(chat, 'What are your hours?');
    await expect(assistantMessages(chat).last()).toContainText('Mon-Fri 8AM-6PM');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/AboutUs$/);
    await expect(chatWindow(page)).toBeVisible();
    await expect(userMessages(chatWindow(page))).toHaveCount(1);
    await expect(assistantMessages(chatWindow(page)).last()).toContainText('Mon-Fri 8AM-6PM');

    await page.reload();
    await expect(chatWindow(page)).toBeVisible();
    await expect(userMessages(chatWindow(page)).first()).toContainText('What are your hours?');
    await expect(assistantMessages(chatWindow(page)).last()).toContainText('Mon-Fri 8AM-6PM');

    // Closed stays closed.
    await chatWindow(page).getByRole('button', { name: 'Close chat' }).click();
    await page.goto('/AC');
    await expect(bubble(page)).toBeEnabled();
    await expect(chatWindow(page)).toHaveCount(0);
    const chatAgain = await openChat(page);
    await expect(userMessages(chatAgain)).toHaveCount(1);
  });

  test('is not on the staff pages', async ({ page }) => {
    await page.goto('/admin/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(bubble(page)).toHaveCount(0);
    await expect(chatWindow(page)).toHaveCount(0);
  });

  test('on a phone the window fills the screen and works', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const bubbleBox = await bubble(page).boundingBox();
    expect(bubbleBox && bubbleBox.x + bubbleBox.width).toBeLessThanOrEqual(390);
    const chat = await openChat(page);
    const box = await chat.boundingBox();
    expect(box?.x).toBe(0);
    expect(box?.width).toBe(390);
    expect(box?.height).toBeGreaterThanOrEqual(800);
    await expect(messageBox(chat)).toBeInViewport();
    await expect(sendButton(chat)).toBeInViewport();

    await chat.getByRole('button', { name: "My AC isn't cooling" }).click();
    await messageBox(chat).press('Enter');
    await expect(assistantMessages(chat)).toHaveCount(2);
    // The reply asks for the form: it opens, and its fields can be reached and filled.
    const form = chat.getByRole('region', { name: 'Schedule Service' });
    await expect(form).toBeVisible();
    await form.getByLabel('Service Address').fill('5 Pope Ave, Hilton Head Island, SC');
    await expect(form.getByLabel('Service Address')).toBeInViewport();
    await expect(form.getByRole('button', { name: 'Create Service Request' })).toBeVisible();

    await chat.getByRole('button', { name: 'Close chat' }).click();
    await expect(bubble(page)).toBeVisible();
  });

  test('has no serious accessibility violations with the window open', async ({ page }) => {
    await page.goto('/');
    const chat = await openChat(page);
    await ask(chat, 'What are your hours?');
    await expectNoSeriousA11yViolations(page);
    const form = await openScheduleForm(chat);
    await form.getByRole('button', { name: 'Create Service Request' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
