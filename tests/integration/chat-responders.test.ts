import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '#shared/chat.ts';
import { createTestApp, type TestContext } from '#tests/support/test-app.ts';
import { startFakeHttpServer, type RecordedRequest } from '#tests/support/fake-http-server.ts';

const phone = '(843) 555-0142';
let nextAddress = 10;
const freshAddress = () => `127.0.4.${(nextAddress += 1)}`;

function completion(content: string) {
  return { status: 200, json: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } };
}

function send(context: TestContext, message: string, extra: Record<string, unknown> = {}) {
  return context.app.inject({
    method: 'POST',
    url: '/api/public/chat/messages',
    payload: { message, sessionId: 'session-model-0001', ...extra },
    remoteAddress: freshAddress(),
  });
}

describe('the language-model responder (OpenAI-compatible API on 127.0.0.1)', () => {
  let model: Awaited<ReturnType<typeof startFakeHttpServer>>;
  let context: TestContext;
  beforeAll(async () => {
    model = await startFakeHttpServer(() => completion('We are open weekdays 8 to 6.'));
    context = await createTestApp({ env: { CHAT_API_URL: `${model.url}/v1`, CHAT_API_KEY: 'sk-test-key', CHAT_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await context.close();
    await model.close();
  });

  it('sends the spec parameters with the company facts, and returns the model text with the rules’ intent', async () => {
    const response = await send(context, 'When are you open?');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'We are open weekdays 8 to 6.', intent: 'business_hours' });
    const request = model.requests.at(-1)!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    const body = request.body as { model: string; temperature: number; max_tokens: number; messages: { role: string; content: string }[] };
    expect(body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.7, max_tokens: 500 });
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toContain('(843) 555-0199');
    expect(body.messages[0]!.content).toContain('Essential $150/year');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'When are you open?' });
  });

  it('sends the earlier turns of the conversation as context', async () => {
    await send(context, 'Do you service Okatie?', { sessionId: 'session-history-01' });
    await send(context, 'And Ridgeland?', { sessionId: 'session-history-01' });
    const body = model.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body.messages[1]!.content).toBe('Do you service Okatie?');
  });

  it('answers 429 and 401 with the spec replies, and anything else with the built-in answer', async () => {
    model.state.answer = () => ({ status: 429, json: { error: { message: 'Rate limit' } } });
    expect((await send(context, 'Hello')).json().message).toBe(chatMessages.modelRateLimited(phone));
    model.state.answer = () => ({ status: 401, json: { error: { message: 'Invalid key' } } });
    expect((await send(context, 'Hello')).json().message).toBe(chatMessages.modelUnauthorized(phone));
    model.state.answer = () => ({ status: 500, text: 'upstream exploded' });
    expect((await send(context, 'What are your hours?')).json().message).toContain('Mon-Fri 8AM-6PM');
    model.state.answer = () => ({ status: 200, json: { unexpected: true } });
    expect((await send(context, 'What are your hours?')).json().message).toContain('Mon-Fri 8AM-6PM');
  });

  it('falls back to the built-in answer when the model does not answer in time', async () => {
    model.state.answer = () => 'hang';
    const response = await send(context, 'What are your hours?');
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toContain('Mon-Fri 8AM-6PM');
  });

  it('never asks the model when a safety script applies', async () => {
    const before = model.requests.length;
    model.state.answer = () => completion('Sure, I will book a tune-up!');
    const reply = (await send(context, 'I smell gas, please book a tune-up')).json();
    expect(reply.category).toBe('safety');
    expect(model.requests.length).toBe(before);
  });

  it('scores a chat booking with the JSON call at temperature 0.3, and uses its urgency', async () => {
    model.state.answer = (request: RecordedRequest) =>
      (request.body as { temperature: number }).temperature === 0.3
        ? completion(JSON.stringify({ score: 9, reasons: 'Full replacement, unit failed', urgency: 'high' }))
        : completion('ok');
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/public/chat/bookings',
      payload: { sessionId: 'session-score-0001', name: 'Rita Scored', phone: '843-555-0155', address: '3 Bay St, Beaufort, SC 29902', serviceType: 'installation', description: 'Old unit died' },
      remoteAddress: freshAddress(),
    });
    expect(response.statusCode).toBe(201);
    const scoring = model.requests.at(-1)!.body as { temperature: number; response_format: unknown };
    expect(scoring).toMatchObject({ temperature: 0.3, response_format: { type: 'json_object' } });
    const [lead] = await context.database.query<{ lead_score: number; urgency: string; notes: string }>(
      `select lead_score, urgency, notes from ai_leads where conversation_id = 'session-score-0001'`,
    );
    expect(lead).toEqual({ lead_score: 9, urgency: 'high', notes: 'Full replacement, unit failed' });
    const [order] = await context.database.query<{ priority: string }>(`select priority from work_orders where work_order_number = $1`, [response.json().workOrderNumber]);
    expect(order!.priority).toBe('high');
  });

  it('scores 5 with medium urgency when the scoring call fails, and still books', async () => {
    model.state.answer = () => ({ status: 500, text: 'down' });
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/public/chat/bookings',
      payload: { sessionId: 'session-score-0002', name: 'Ned Fallback', phone: '843-555-0156', address: '5 Main St, Ridgeland', serviceType: 'repair', description: 'Weird smell of dust' },
      remoteAddress: freshAddress(),
    });
    expect(response.statusCode).toBe(201);
    const [lead] = await context.database.query<{ lead_score: number; urgency: string }>(
      `select lead_score, urgency from ai_leads where conversation_id = 'session-score-0002'`,
    );
    expect(lead).toEqual({ lead_score: 5, urgency: 'medium' });
  });
});

describe('the automation webhook responder (on 127.0.0.1)', () => {
  let webhook: Awaited<ReturnType<typeof startFakeHttpServer>>;
  let context: TestContext;
  beforeAll(async () => {
    webhook = await startFakeHttpServer(() => ({ status: 200, json: { message: 'Let me get you booked in.', category: 'scheduling', urgency: 'medium', action: 'show_form' } }));
    context = await createTestApp({ env: { CHAT_WEBHOOK_URL: `${webhook.url}/hooks/chat`, CHAT_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await context.close();
    await webhook.close();
  });

  it('posts {message, customer_name, phone, session_id} and passes the reply on', async () => {
    const response = await send(context, 'Can a technician come Friday?', { customer: { id: '5f1c9f8e-3c53-4a37-9a3e-8f0f5b2e1a11', name: 'Lee Known' } });
    expect(response.json()).toMatchObject({ message: 'Let me get you booked in.', category: 'scheduling', urgency: 'medium', action: 'show_form' });
    expect(webhook.requests.at(-1)!.body).toEqual({
      message: 'Can a technician come Friday?',
      customer_name: 'Lee Known',
      phone: null,
      session_id: 'session-model-0001',
    });
  });

  it('replies with the spec failure message when the webhook fails, answers nonsense, or hangs', async () => {
    for (const answer of [() => ({ status: 502, text: 'Bad gateway' }), () => ({ status: 200, json: { nope: 1 } }), () => 'hang' as const]) {
      webhook.state.answer = answer;
      const reply = (await send(context, 'Hello?')).json();
      expect(reply).toMatchObject({ message: chatMessages.webhookFailure(phone), intent: 'error' });
    }
  });
});
