import fs from 'node:fs/promises';
import path from 'node:path';
import type * as Nodemailer from 'nodemailer';
import type * as NodemailerShared from 'nodemailer/lib/shared/index.js';

/** nodemailer loads with the first message, not when the server starts (decision 023-b). */
let loading: Promise<{ nodemailer: typeof Nodemailer; shared: typeof NodemailerShared }> | undefined;
function loadNodemailer() {
  loading ??= Promise.all([import('nodemailer'), import('nodemailer/lib/shared/index.js')]).then(([nodemailer, shared]) => ({
    nodemailer: nodemailer.default,
    shared: shared.default,
  }));
  return loading;
}

export type EmailMessage = {
  from: string;
  to: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
};

/** Delivers one message or throws. Retries are the outbox's business, not the sender's. */
export type EmailSender = {
  kind: 'smtp' | 'file';
  /** `onHandedOver` is called once the whole message has been written to the mail server. */
  send: (message: EmailMessage, events?: { onHandedOver?: () => void }) => Promise<void>;
  close: () => void;
  /** Deletes delivered copies kept by the sender older than `cutoff` (the file outbox); returns how many. */
  purgeOlderThan?: (cutoff: Date) => Promise<number>;
};

/**
 * The send failed after the mail server received the whole message and before it answered (a
 * timeout, a lost connection): it may or may not deliver it. The outbox does not send it again.
 */
export class EmailOutcomeUnknownError extends Error {
  constructor(readonly original: unknown) {
    super(`the mail server did not confirm the message it received: ${original instanceof Error ? original.message : String(original)}`);
    this.name = 'EmailOutcomeUnknownError';
  }
}

export function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof EmailOutcomeUnknownError;
}

/**
 * SMTP timeouts: each well under the close's wait for a send in flight (email-outbox.ts, 7 s) and
 * main.ts's forced exit (10 s), so a hung server ends the send, not the process; and far under the
 * outbox's claim lease (10 min), so a send never outlives its claim.
 */
export const smtpTimeouts = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 };

/** SMTP via nodemailer (SMTP_URL, e.g. smtps://user:pass@mail.example.com:465). One connection per message. */
export function createSmtpSender(smtpUrl: string, timeouts: Partial<typeof smtpTimeouts> = {}): EmailSender {
  const settings = { ...smtpTimeouts, ...timeouts };
  return {
    kind: 'smtp',
    send: async (message, events) => {
      let isHandedOver = false;
      // nodemailer logs "<n bytes encoded mime message>" (tnx 'message') when the message data has
      // been written to the server: past that point a failure without an answer is ambiguous.
      const watch = (entry: unknown) => {
        if (!isHandedOver && (entry as { tnx?: string } | undefined)?.tnx === 'message') {
          isHandedOver = true;
          events?.onHandedOver?.();
        }
      };
      const ignore = () => undefined;
      const logger = { trace: ignore, debug: ignore, info: watch, warn: ignore, error: ignore, fatal: ignore, level: ignore };
      // The URL parsed here, so the timeouts and the logger are transport options (a second argument
      // to createTransport would be message defaults: the timeouts used to be ignored that way).
      const { nodemailer, shared } = await loadNodemailer();
      const transport = nodemailer.createTransport({ ...shared.parseConnectionUrl(smtpUrl), ...settings, logger } as never);
      try {
        await transport.sendMail(message);
      } catch (error) {
        const isAnswered = typeof (error as { responseCode?: unknown }).responseCode === 'number';
        throw isHandedOver && !isAnswered ? new EmailOutcomeUnknownError(error) : error;
      } finally {
        transport.close();
      }
    },
    close: () => undefined,
  };
}

function createStreamTransport(nodemailer: typeof Nodemailer) {
  return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
}

/**
 * Offline default: each message becomes an .eml file under DATA_DIR/outbox (open it in any mail
 * app). The file is the delivery (the mailbox): the outbox blanks its own copy of a secret once the
 * file is written, and files older than the retention period are deleted.
 */
export function createFileSender(directory: string): EmailSender {
  let transport: ReturnType<typeof createStreamTransport> | undefined;
  return {
    kind: 'file',
    send: async (message, events) => {
      const { nodemailer } = await loadNodemailer();
      transport ??= createStreamTransport(nodemailer);
      const info = await transport.sendMail(message);
      await fs.mkdir(directory, { recursive: true, mode: 0o700 });
      const safeId = info.messageId.replace(/[^\w.-]+/g, '');
      await fs.writeFile(path.join(directory, `${new Date().toISOString().replace(/[:.]/g, '-')}_${safeId}.eml`), info.message, { mode: 0o600 });
      events?.onHandedOver?.();
    },
    close: () => transport?.close(),
    purgeOlderThan: async (cutoff) => {
      let entries: string[];
      try {
        entries = await fs.readdir(directory);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of entries.filter((entry) => entry.endsWith('.eml'))) {
        const file = path.join(directory, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat && stat.mtime < cutoff) {
          await fs.rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
