import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#tests/support/test-app.ts';
import { startTestSmtpServer } from '#tests/support/smtp-server.ts';

// Issue 15, must fix 1 (third bullet): the estimate form must not let a stranger make the company
// send their words to any address, nor flood one address with the company's mail.
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let context: TestContext;
let nextAddress = 10;
const freshAddress = () => `127.0.3.${(nextAddress += 1)}`;

const spam = {
  name: 'Claim your prize at http://evil.example/win',
  email: 'victim@example.org',
  phone: '(843) 555-0144',
  address: '1 Phish Way, Bluffton, SC 29910',
  serviceType: 'maintenance',
  description: 'URGENT: your account is locked, log in at http://evil.example/login now',
  preferredDate: '',
  preferredTime: '',
};

const submit = (body: object) =>
  context.app.inject({ method: 'POST', url: '/api/public/estimate-requests', payload: body, remoteAddress: freshAddress() });

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  context = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_FORM_LIMIT: '100' } });
});
afterAll(async () => {
  await context.close();
  await smtp.close();
});

const toVisitor = (address: string) => smtp.received.filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));
const toStaff = () => smtp.received.filter((mail) => mail.to.includes('office@lowcountrycomfort.example'));

describe('estimate form text reaching the visitor mail', () => {
  it('the confirmation carries fixed text, the reference and the service label, none of the typed words', async () => {
    const response = await submit(spam);
    expect(response.statusCode).toBe(201);
    await context.app.emailOutbox.idle();
    const [confirmation] = toVisitor('victim@example.org');
    expect(confirmation).toBeDefined();
    const raw = confirmation!.raw.replace(/=\r?\n/g, '');
    for (const typed of ['evil.example', 'Claim your prize', 'account is locked', 'Phish Way', '555-0144']) expect(raw).not.toContain(typed);
    expect(raw).toContain('Hello,');
    expect(raw).toContain('Maintenance');
    expect(raw).toMatch(/EST-[0-9A-F]{8}/);
    // Staff still get every detail.
    const staff = toStaff().at(-1)!.raw.replace(/=\r?\n/g, '');
    expect(staff).toContain('evil.example/login');
  });
});

describe('estimate confirmations to one address are capped', () => {
  it('10 requests with one victim e-mail store 10 requests and notify staff 10 times, but send the victim at most 3 mails, with the same answers', async () => {
    const victim = 'Flooded.Victim@Example.net';
    const staffBefore = toStaff().length;
    const answers = [];
    for (let index = 0; index < 10; index += 1) {
      const response = await submit({ ...spam, name: 'A Name', description: '', email: index % 2 ? victim : victim.toLowerCase() });
      answers.push(response.statusCode);
      expect(Object.keys(response.json().request).sort()).toEqual(['createdAt', 'id', 'priority', 'status']);
    }
    expect(answers).toEqual(Array(10).fill(201));
    await context.app.emailOutbox.idle();
    const [stored] = await context.database.query<{ count: number }>(`select count(*)::int as count from estimate_requests where lower(email) = $1`, [victim.toLowerCase()]);
    expect(stored!.count).toBe(10);
    expect(toStaff().length - staffBefore).toBe(10);
    expect(toVisitor(victim).length).toBe(3);
  });

  it('parallel requests do not pass the cap', async () => {
    const victim = 'parallel.victim@example.net';
    const responses = await Promise.all(Array.from({ length: 8 }, () => submit({ ...spam, email: victim })));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(201));
    await context.app.emailOutbox.idle();
    const [mails] = await context.database.query<{ count: number }>(`select count(*)::int as count from outbound_emails where $1 = any(recipients)`, [victim]);
    expect(mails!.count).toBe(3);
  });
});
