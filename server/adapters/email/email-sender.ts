import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export type EmailMessage = {
  from: string;
  to: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
};

/** Delivers one message or throws. Retries are the outbox's business, not the sender's. */
export type EmailSender = { kind: 'smtp' | 'file'; send: (message: EmailMessage) => Promise<void>; close: () => void };

/** SMTP via nodemailer (SMTP_URL, e.g. smtps://user:pass@mail.example.com:465). */
export function createSmtpSender(smtpUrl: string): EmailSender {
  const transport = nodemailer.createTransport(smtpUrl, {
    // A mail server that hangs must not hold a delivery attempt for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as never);
  return {
    kind: 'smtp',
    send: async (message) => {
      await transport.sendMail(message);
    },
    close: () => transport.close(),
  };
}

/** Offline default: each message becomes an .eml file under DATA_DIR/outbox (open it in any mail app). */
export function createFileSender(directory: string): EmailSender {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    send: async (message) => {
      const info = (await transport.sendMail(message)) as unknown as { message: Buffer; messageId: string };
      await fs.mkdir(directory, { recursive: true });
      const safeId = info.messageId.replace(/[^\w.-]+/g, '');
      await fs.writeFile(path.join(directory, `${new Date().toISOString().replace(/[:.]/g, '-')}_${safeId}.eml`), info.message);
    },
    close: () => transport.close(),
  };
}
