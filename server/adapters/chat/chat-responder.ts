import type { ChatReply } from '#shared/chat.ts';

export type ChatTurn = { role: 'user' | 'assistant'; content: string };

export type ChatQuestion = {
  message: string;
  sessionId: string;
  customerName: string | undefined;
  phone: string | undefined;
  /** Earlier turns of this conversation, oldest first. */
  history: ChatTurn[];
};

/** Answers a visitor's message. Implementations must not throw: failures become replies. */
export type ChatResponder = {
  kind: 'rules' | 'model' | 'webhook';
  reply: (question: ChatQuestion) => Promise<ChatReply>;
  /**
   * The settings screen's test: the responder's own answer text, or a rejection with the real
   * cause (HTTP status, timeout, malformed answer) instead of the visitor-facing fallback.
   */
  probe: (question: ChatQuestion) => Promise<string>;
};

/** Scores a chat booking 1-10 with an urgency (the model's JSON call, or the spec's fallback). */
export type LeadScorer = (details: { description: string; serviceType: string; fallbackUrgency: ChatReply['urgency'] }) => Promise<{
  score: number;
  urgency: ChatReply['urgency'];
  reasons: string;
}>;
