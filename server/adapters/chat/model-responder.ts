import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { chatMessages, chatUrgencies, type ChatReply } from '#shared/chat.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { systemPrompt } from './company-facts.ts';
import type { ChatQuestion, ChatResponder, LeadScorer } from './chat-responder.ts';

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

const leadScoreSchema = z.object({
  score: z.coerce.number().min(1).max(10),
  reasons: z.union([z.string(), z.array(z.string()).transform((items) => items.join('; '))]).default(''),
  urgency: z.enum(chatUrgencies),
});

export class ModelHttpError extends Error {
  constructor(readonly status: number) {
    super(`The chat model answered ${status}`);
    this.name = 'ModelHttpError';
  }
}

type ModelOptions = { url: string; key: string; name: string; timeoutMs: number };

/** One chat-completions call to an OpenAI-compatible API. */
async function complete(options: ModelOptions, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${options.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: options.name, ...body }),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new ModelHttpError(response.status);
  const parsed = completionSchema.parse(await response.json());
  const content = parsed.choices[0]!.message.content?.trim();
  if (!content) throw new Error('The chat model answered with no text');
  return content;
}

/**
 * The language-model responder (spec 000 section 7: temperature 0.7, at most 500 tokens), grounded
 * in the company's facts by its system prompt. The model only writes the words: intent, urgency and
 * whether to open the booking form come from the rules, so nothing a visitor types can make the
 * model book, change or promise anything. Rate limiting (429) and a rejected key (401) get the
 * spec's replies; any other failure falls back to the rule-based answer.
 */
export function createModelResponder(options: ModelOptions & { company: CompanyProfile; fallback: ChatResponder; log: FastifyBaseLogger }): ChatResponder & {
  scoreLead: LeadScorer;
} {
  const { company, fallback, log } = options;
  const instructions = systemPrompt(company);

  return {
    kind: 'model',
    async reply(question: ChatQuestion): Promise<ChatReply> {
      const rulesReply = await fallback.reply(question);
      try {
        const content = await complete(options, {
          temperature: 0.7,
          max_tokens: 500,
          messages: [
            { role: 'system', content: instructions },
            ...question.history.slice(-10),
            { role: 'user', content: question.message },
          ],
        });
        return { ...rulesReply, message: content };
      } catch (error) {
        if (error instanceof ModelHttpError && error.status === 429) {
          return { ...rulesReply, message: chatMessages.modelRateLimited(company.phone), category: 'error', action: 'none' };
        }
        if (error instanceof ModelHttpError && error.status === 401) {
          log.error('the chat model refused the configured key (401): check CHAT_API_KEY');
          return { ...rulesReply, message: chatMessages.modelUnauthorized(company.phone), category: 'error', action: 'none' };
        }
        log.warn({ err: error }, 'chat model failed; answering with the built-in assistant');
        return rulesReply;
      }
    },

    async probe(question: ChatQuestion): Promise<string> {
      return complete(options, {
        temperature: 0.7,
        max_tokens: 500,
        messages: [{ role: 'system', content: instructions }, { role: 'user', content: question.message }],
      });
    },

    /** Spec 000 section 7: the JSON scoring call at temperature 0.3; 5 with medium urgency when it fails. */
    async scoreLead(details) {
      try {
        const content = await complete(options, {
          temperature: 0.3,
          max_tokens: 200,
          response_format: { type: 'json_object' },
          messages: [
            {
              role: 'system',
              content:
                'You score service leads for an HVAC company. Answer only with JSON: {"score": 1-10, "reasons": "short text", "urgency": "low"|"medium"|"high"|"emergency"}. ' +
                'Higher scores for urgent problems, installations and replacements.',
            },
            { role: 'user', content: `Service type: ${details.serviceType}\nDescription: ${details.description}` },
          ],
        });
        const parsed = leadScoreSchema.parse(JSON.parse(content));
        return { score: Math.round(parsed.score), urgency: parsed.urgency, reasons: parsed.reasons };
      } catch (error) {
        log.warn({ err: error }, 'lead scoring by the chat model failed; using the fallback score');
        return { score: 5, urgency: 'medium', reasons: 'Scoring failed; default score.' };
      }
    },
  };
}

