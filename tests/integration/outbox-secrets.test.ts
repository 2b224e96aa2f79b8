import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup } from '#server/db/backup.ts';
import { createTestApp, createStaff, signIn, type TestContext } from '#tests/support/test-app.ts';
import { startTestSmtpServer } from '#tests/support/smtp-server.ts';

// Issue 15, must fix 5: set-password links sat in plain text in queued e-mails (database,
// backups) forever.
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let context: TestContext;
let adminCookie: string;
let workDir: string;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  context = await createTestApp({ env: { SMTP_URL: smtp.url } });
  await createStaff(context.database, 'admin@example.com');
  adminCookie = await signIn(context.app, 'admin@example.com');
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-outbox-secrets-'));
});
afterAll(async () => {
  await context.close();
  await smtp.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const tableDump = async () => JSON.stringify(await context.database.query('select * from outbound_emails'));

async function backupText(name: string): Promise<string> {
  const outFile = path.join(workDir, `${name}.tar.gz`);
  await createBackup({ database: context.database, uploadsDir: path.join(workDir, 'uploads'), outFile, appVersion: 'test' });
  const extracted = path.join(workDir, name);
  fs.mkdirSync(extracted);
  execFileSync('tar', ['-xzf', outFile, '-C', extracted]);
  return fs.readdirSync(path.join(extracted, 'database')).map((file) => fs.readFileSync(path.join(extracted, 'database', file), 'utf8')).join('\n');
}

function tokenIn(raw: string): string {
  const token = /set-password#token=([\w-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
  if (!token) throw new Error('no set-password link in the delivered mail');
  return token;
}

describe('set-password links at rest', () => {
  it('an invitation link is delivered, then no longer in the outbox table; no backup, before or after sending, holds it', async () => {
    // Queued, not yet sent: the backup blanks it anyway.
    smtp.state.isRejecting = true;
    const created = await context.app.inject({
      method: 'POST',
      url: '/api/admin/settings/staff',
      headers: { cookie: adminCookie },
      payload: { email: 'new.tech@example.com', name: 'New Tech', role: 'dispatcher', setup: 'invite' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await context.app.emailOutbox.idle();
    const [queued] = await context.database.query<{ text_body: string; status: string; carries_secret: boolean }>(
      `select text_body, status, carries_secret from outbound_emails where 'new.tech@example.com' = any(recipients)`,
    );
    expect(queued).toMatchObject({ status: 'pending', carries_secret: true });
    const pendingToken = tokenIn(queued!.text_body);
    const before = await backupText('before-send');
    expect(before).toContain('new.tech@example.com');
    expect(before).not.toContain(pendingToken);

    // Delivered through a real SMTP server: the mail has the link, the table no longer does.
    smtp.state.isRejecting = false;
    await context.database.query(`update outbound_emails set next_attempt_at = now()`);
    await context.app.emailOutbox.deliverDue();
    const delivered = smtp.received.filter((mail) => mail.to.includes('new.tech@example.com'));
    expect(delivered).toHaveLength(1);
    expect(tokenIn(delivered[0]!.raw)).toBe(pendingToken);
    const dump = await tableDump();
    expect(dump).not.toContain(pendingToken);
    expect(dump).not.toContain('set-password#token');
    const [sent] = await context.database.query<{ status: string; subject: string; recipients: string[]; sent_at: Date | null }>(
      `select status, subject, recipients, sent_at from outbound_emails where 'new.tech@example.com' = any(recipients)`,
    );
    expect(sent).toMatchObject({ status: 'sent', recipients: ['new.tech@example.com'] });
    expect(sent!.subject).toContain('back-office account');
    expect(sent!.sent_at).not.toBeNull();
    expect(await backupText('after-send')).not.toContain(pendingToken);
  });

  it('a reset link is delivered and then gone from the table', async () => {
    const [user] = await context.database.query<{ id: string }>(`select id from staff_users where email = 'new.tech@example.com'`);
    const reset = await context.app.inject({ method: 'POST', url: `/api/admin/settings/staff/${user!.id}/password`, headers: { cookie: adminCookie }, payload: { setup: 'invite' } });
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    await context.app.emailOutbox.idle();
    const mails = smtp.received.filter((mail) => mail.to.includes('new.tech@example.com'));
    const token = tokenIn(mails.at(-1)!.raw);
    expect(await tableDump()).not.toContain(token);
  });

  it('sent mail older than the retention period (30 days) is purged; recent and pending mail stays', async () => {
    await context.database.query(
      `insert into outbound_emails (recipients, subject, text_body, status, created_at, sent_at)
       values ('{old@example.com}', 'old sent', 'x', 'sent', now() - interval '31 days', now() - interval '31 days'),
              ('{old@example.com}', 'old failed', 'x', 'failed', now() - interval '31 days', null),
              ('{old@example.com}', 'recent sent', 'x', 'sent', now() - interval '29 days', now() - interval '29 days'),
              ('{old@example.com}', 'old pending', 'x', 'pending', now() - interval '31 days', null)`,
    );
    await context.database.query(`update outbound_emails set next_attempt_at = now() + interval '1 day' where subject = 'old pending'`);
    const purged = await context.app.emailOutbox.purgeFinished();
    expect(purged).toBe(2);
    const left = await context.database.query<{ subject: string }>(`select subject from outbound_emails where 'old@example.com' = any(recipients) order by subject`);
    expect(left.map((row) => row.subject)).toEqual(['old pending', 'recent sent']);
  });
});
