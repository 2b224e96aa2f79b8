import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { chatMessages, chatUrgencies, detectIntent, detectUrgency, type ChatReply } from '#shared/chat.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import type { ChatQuestion, ChatResponder } from './chat-responder.ts';

const webhookReplySchema = z.object({
  message: z.string().trim().min(1).max(4000),
  category: z.string().max(40).optional(),
  urgency: z.string().max(20).optional(),
  action: z.string().max(40).optional(),
});

/**
 * An automation webhook (spec 000 section 7): POSTs {message, customer_name, phone, session_id} and
 * expects {message, category, urgency, action}. Any failure gives the spec's reply.
 */
export function createWebhookResponder(options: { url: string; timeoutMs: number; company: CompanyProfile; log: FastifyBaseLogger }): ChatResponder {
  const { url, timeoutMs, company, log } = options;

  /** One call: the webhook's reply, or a rejection with the cause. */
  async function call(question: ChatQuestion) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        message: question.message,
        customer_name: question.customerName ?? null,
        phone: question.phone ?? null,
        session_id: question.sessionId,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`The chat webhook answered ${response.status}`);
    return webhookReplySchema.parse(await response.json());
  }

  return {
    kind: 'webhook',
    async probe(question: ChatQuestion): Promise<string> {
      return (await call(question)).message;
    },
    async reply(question: ChatQuestion): Promise<ChatReply> {
      try {
        const reply = await call(question);
        const urgency = (chatUrgencies as readonly string[]).includes(reply.urgency ?? '')
          ? (reply.urgency as ChatReply['urgency'])
          : detectUrgency(question.message);
        return {
          message: reply.message,
          category: reply.category ?? 'general',
          urgency,
          action: reply.action ?? 'none',
          intent: detectIntent(question.message),
        };
      } catch (error) {
        log.warn({ err: error }, 'chat webhook failed');
        return { message: chatMessages.webhookFailure(company.phone), category: 'error', urgency: 'low', action: 'none', intent: 'error' };
      }
    },
  };
}
