import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '#server/config.ts';
import type { ChatResponder, LeadScorer } from './chat-responder.ts';
import { createModelResponder } from './model-responder.ts';
import { createRuleBasedResponder } from './rule-based-responder.ts';
import { createWebhookResponder } from './webhook-responder.ts';

/** The configured responder: a webhook, else a language model, else the built-in assistant. */
export function createChatResponder(config: AppConfig, log: FastifyBaseLogger): { responder: ChatResponder; scoreLead: LeadScorer | undefined } {
  const rules = createRuleBasedResponder(config.company);
  if (config.chat.webhookUrl) {
    return {
      responder: createWebhookResponder({ url: config.chat.webhookUrl, timeoutMs: config.chat.timeoutMs, company: config.company, log }),
      scoreLead: undefined,
    };
  }
  if (config.chat.model) {
    const model = createModelResponder({ ...config.chat.model, timeoutMs: config.chat.timeoutMs, company: config.company, fallback: rules, log });
    return { responder: model, scoreLead: model.scoreLead };
  }
  return { responder: rules, scoreLead: undefined };
}
