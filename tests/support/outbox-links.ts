import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from './test-app.ts';

/** Quoted-printable soft breaks and escapes undone (an .eml's text part may be encoded so). */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The customer link (quote or invoice) of the newest e-mail of `kind` to `recipient`. The outbox
 * keeps a secret-carrying body only until the message is handed to the sender, which may happen
 * at any moment in a test app (its outbox worker runs): then the link is read from the .eml the
 * offline sender wrote under DATA_DIR/outbox, the newest one to that recipient.
 */
export async function customerLinkFromOutbox(context: TestContext, options: { recipient: string; kind: string; site: string; documentType: 'quote' | 'invoice' | 'visit' }): Promise<string> {
  const pattern = new RegExp(`${options.site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${options.documentType}/([A-Za-z0-9_-]{43})`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await context.database.query<{ text_body: string; status: string; created_at: Date }>(
      `select text_body, status, created_at from outbound_emails where kind = $1 and $2 = any(recipients) order by created_at desc limit 1`,
      [options.kind, options.recipient],
    );
    const fromRow = pattern.exec(row?.text_body ?? '')?.[1];
    if (fromRow) return fromRow;
    if (row?.status === 'sent') {
      const directory = path.join(context.config.dataDir, 'outbox');
      const files = fs.existsSync(directory) ? fs.readdirSync(directory).filter((name) => name.endsWith('.eml')) : [];
      const newest = files
        .map((name) => ({ name, mtime: fs.statSync(path.join(directory, name)).mtimeMs, text: decodeQuotedPrintable(fs.readFileSync(path.join(directory, name), 'utf8')) }))
        .filter((file) => file.text.includes(options.recipient) && pattern.test(file.text))
        .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name))[0];
      if (newest) return pattern.exec(newest.text)![1]!;
    }
    if (Date.now() > deadline) throw new Error(`No ${options.documentType} link to ${options.recipient} in the outbox (${row ? `newest: ${row.status}` : 'no message'})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
