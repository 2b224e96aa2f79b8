import { sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import { defaultMessageTemplates, type MessageTemplate, type MessageType } from '#shared/messaging.ts';

/**
 * The template a message of this type is written from now: an admin's edit (Settings → Messages),
 * else the built-in one. For other modules that send on this layer inside their own transaction
 * (the estimate request's confirmation).
 */
export async function messageTemplateFor(executor: DbExecutor, type: MessageType): Promise<MessageTemplate> {
  const result = await executor.execute<MessageTemplate>(sql`
    select subject, email_body as "emailBody", sms_body as "smsBody" from message_templates where type = ${type}`);
  return result.rows[0] ?? defaultMessageTemplates[type];
}
