import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import pg from 'pg';
import { validEstimateRequest } from '../support/estimate-fixtures.ts';
import { webp } from '../support/images.ts';
import { readScaleState, scaleAdmin, scaleChatLimit, type ScaleState } from './scale-cluster.ts';

// Issue 23: three instances on one PostgreSQL database behind nginx, proven from outside. Every
// request goes through nginx (round robin); X-Served-By says which instance answered.

let state: ScaleState;
test.beforeAll(() => {
  state = readScaleState();
});

const servedBy = (response: APIResponse | { headers(): Record<string, string> }) => response.headers()['x-served-by'];

async function query<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: state.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

function submitEstimate(request: APIRequestContext, name: string, email: string) {
  return request.post(`${state.siteUrl}/api/public/estimate-requests`, {
    data: { ...validEstimateRequest, name, email, serviceType: 'maintenance' },
    headers: { 'idempotency-key': randomUUID() },
    timeout: 15_000,
  });
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${state.siteUrl}/admin/login`);
  await page.getByLabel('Email').fill(scaleAdmin.email);
  await page.getByLabel('Password').fill(scaleAdmin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

test('sign-in and every screen work while requests land on different instances', async ({ page }) => {
  const answeredBy = new Set<string>();
  const failures: string[] = [];
  page.on('response', (response) => {
    if (!response.url().startsWith(`${state.siteUrl}/api/`)) return;
    const name = servedBy(response);
    if (name) answeredBy.add(name);
    if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
  });
  await signIn(page);
  const navigation = page.getByRole('navigation', { name: 'Admin' });
  const screens: [string, string][] = [
    ['Map', 'Service Map'],
    ['Setup Geocoding', 'Geocoding Setup'],
    ['Calendar', 'Service Calendar'],
    ['Estimates', 'Lead Management'],
    ['Customers', 'Customer Directory'],
    ['Work Orders', 'Work Orders'],
    ['Visits Due', 'Visits Due'],
    ['Quotes', 'Quotes'],
    ['Invoices', 'Invoices'],
    ['Price Book', 'Price Book'],
    ['Dashboard', 'Dashboard'],
  ];
  for (const [label, heading] of screens) {
    await navigation.getByRole('link', { name: label }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  // A reload keeps the session whichever instance takes it (sessions live in the database).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(failures).toEqual([]);
  expect([...answeredBy].sort()).toEqual(state.instances.map((instance) => instance.name).sort());
});

test('a change made through one instance reaches a browser whose live stream another holds, within 2 s', async ({ page, request }) => {
  // The admin layout opens the stream once signed in, and holds it across screens.
  const stream = page.waitForResponse((response) => response.url().endsWith('/api/admin/events') && response.status() === 200);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Estimates' }).click();
  const holder = servedBy(await stream);
  expect(holder).toBeTruthy();
  // The stream's `ready` has arrived once the list shows; then a visitor asks, through nginx, until
  // an instance other than the stream's takes the request.
  await expect(page.getByRole('heading', { level: 1, name: 'Lead Management' })).toBeVisible();
  let name = '';
  for (let attempt = 0; attempt < 10; attempt += 1) {
    name = `Scale Live ${randomUUID().slice(0, 8)}`;
    const response = await submitEstimate(request, name, `live.${attempt}@example.com`);
    expect(response.status()).toBe(201);
    if (servedBy(response) !== holder) break;
    // Taken by the stream's own instance: shown there too, but that proves nothing; ask again.
    await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 2_000 });
  }
  await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 2_000 });
});

test('a photo uploaded through one instance is shown through the others', async ({ request }) => {
  const signedIn = await request.post(`${state.siteUrl}/api/auth/login`, { data: { email: scaleAdmin.email, password: scaleAdmin.password } });
  expect(signedIn.status()).toBe(200);
  const customers = (await (await request.get(`${state.siteUrl}/api/admin/customers?pageSize=1`)).json()) as { customers: { id: string }[] };
  const customerId = customers.customers[0]!.id;
  const uploaded = await request.post(`${state.siteUrl}/api/admin/customers/${customerId}/photos`, {
    multipart: { photos: { name: 'condenser.webp', mimeType: 'image/webp', buffer: await webp() } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const uploader = servedBy(uploaded);
  const [photo] = ((await uploaded.json()) as { photos: { url: string }[] }).photos;
  // Asked through nginx until each instance has answered it: the same bytes from every one.
  const answers = new Map<string, Buffer>();
  for (let attempt = 0; attempt < 12 && answers.size < state.instances.length; attempt += 1) {
    const shown = await request.get(`${state.siteUrl}${photo!.url}`);
    expect(shown.status()).toBe(200);
    expect(shown.headers()['content-type']).toBe('image/webp');
    answers.set(servedBy(shown)!, await shown.body());
  }
  expect([...answers.keys()].sort()).toEqual(state.instances.map((instance) => instance.name).sort());
  expect([...answers.keys()].some((name) => name !== uploader)).toBe(true);
  const [first, ...rest] = [...answers.values()];
  for (const bytes of rest) expect(bytes.equals(first!)).toBe(true);
});

test('the chat limit holds across instances: a client gets it once, not once per instance', async ({ request }) => {
  const instancesSeen = new Set<string>();
  const send = () => request.post(`${state.siteUrl}/api/public/chat/messages`, { data: { message: 'hello', sessionId: 'session-scale-limit-01' } });
  for (let index = 0; index < scaleChatLimit; index += 1) {
    const response = await send();
    expect(response.status(), `message ${index + 1}`).toBe(200);
    instancesSeen.add(servedBy(response)!);
  }
  expect(instancesSeen.size).toBeGreaterThan(1);
  for (let index = 0; index < state.instances.length; index += 1) {
    const refused = await send();
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
  }
});

test('every queued e-mail is sent once, whichever instances deliver', async ({ request }) => {
  const run = randomUUID().slice(0, 8);
  const count = 24;
  const responses = await Promise.all(
    Array.from({ length: count }, (_, index) => submitEstimate(request, `Scale Mail ${run} ${index}`, `mail.${run}.${index}@example.com`)),
  );
  expect(responses.map((response) => response.status())).toEqual(Array.from({ length: count }, () => 201));
  expect(new Set(responses.map(servedBy)).size).toBeGreaterThan(1);
  const mine = () =>
    readFileSync(state.mailFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { to: string[]; subject: string })
      .filter((mail) => mail.to.some((address) => address.startsWith(`mail.${run}.`)));
  // Each visitor's confirmation arrives; then the outbox holds nothing of theirs still to send.
  await expect.poll(() => new Set(mine().flatMap((mail) => mail.to)).size, { timeout: 30_000 }).toBe(count);
  await expect
    .poll(
      async () =>
        (await query<{ pending: number }>(`select count(*)::int as pending from outbound_emails where status <> 'sent' and array_to_string(recipients, ',') like $1`, [`mail.${run}.%`]))[0]!
          .pending,
      { timeout: 30_000 },
    )
    .toBe(0);
  const perRecipient = new Map<string, number>();
  for (const mail of mine()) for (const address of mail.to) perRecipient.set(address, (perRecipient.get(address) ?? 0) + 1);
  expect([...perRecipient.values()].every((times) => times === 1)).toBe(true);
  expect(perRecipient.size).toBe(count);
});

// Last: it kills an instance.
test('killing an instance mid-load loses no acknowledged write, and the others keep serving', async ({ request }) => {
  const run = randomUUID().slice(0, 8);
  const victim = state.instances[1]!;
  const acknowledged: string[] = [];
  const refused: number[] = [];
  let killed = false;
  let sent = 0;
  const worker = async () => {
    while (sent < 90) {
      const index = (sent += 1);
      if (index === 30 && !killed) {
        killed = true;
        process.kill(victim.pid, 'SIGKILL');
      }
      const name = `Scale Kill ${run} ${index}`;
      try {
        const response = await submitEstimate(request, name, `kill.${run}.${index}@example.com`);
        if (response.status() === 201) acknowledged.push(name);
        else refused.push(response.status());
      } catch {
        refused.push(0);
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  expect(killed).toBe(true);
  // Every write a client was told succeeded is there.
  const stored = await query<{ name: string }>(`select name from estimate_requests where name like $1`, [`Scale Kill ${run} %`]);
  const storedNames = new Set(stored.map((row) => row.name));
  expect(acknowledged.filter((name) => !storedNames.has(name))).toEqual([]);
  // Most were acknowledged: nginx stops sending to the dead instance after its first failure.
  expect(acknowledged.length).toBeGreaterThan(80);
  // The others keep serving, reads and writes alike.
  const survivors = new Set<string>();
  for (let index = 0; index < 6; index += 1) {
    const health = await request.get(`${state.siteUrl}/readyz`);
    expect(health.status()).toBe(200);
    survivors.add(servedBy(health)!);
  }
  expect(survivors.has(victim.name)).toBe(false);
  expect(survivors.size).toBe(state.instances.length - 1);
  expect((await submitEstimate(request, `Scale After ${run}`, `after.${run}@example.com`)).status()).toBe(201);
});
