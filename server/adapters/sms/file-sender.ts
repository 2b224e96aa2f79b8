import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SmsSender } from './sms-sender.ts';

/** What a text written to the file outbox holds. */
export type SmsFileRecord = { to: string; from: 'file'; body: string; createdAt: string };

/**
 * Offline default (no SMS_API_URL): each text becomes `<directory>/<timestamp>-<random>.json`
 * (DATA_DIR/outbox/sms), readable by the server's user only (0600, the folder 0700): it holds a
 * customer's number and message. Writing the file is the delivery; its name is the provider id.
 */
export function createFileSmsSender(directory: string): SmsSender {
  return {
    kind: 'file',
    send: async (message) => {
      const createdAt = new Date();
      const name = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.json`;
      const record: SmsFileRecord = { to: message.to, from: 'file', body: message.body, createdAt: createdAt.toISOString() };
      await fs.mkdir(directory, { recursive: true, mode: 0o700 });
      // 'wx': never replaces another text's file.
      await fs.writeFile(path.join(directory, name), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      return { providerId: name };
    },
  };
}
