import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotencyHeadersSchema } from '#shared/api.ts';
import { chatBookingResponseSchema, chatBookingSchema, chatReplySchema, chatRequestSchema } from '#shared/chat.ts';
import { todayIn } from '#shared/dates.ts';
import { onlineBookingBookedSchema, onlineBookingSchema } from '#shared/booking.ts';
import { validateBodyForToday } from '#server/validation.ts';
import type { ChatService } from './chat.service.ts';

export async function chatRoutes(
  app: FastifyInstance,
  options: { chat: ChatService; timeZone: string; messageLimitPerMinute: number; bookingLimitPer15Minutes: number },
): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const today = () => todayIn(options.timeZone);

  routes.post(
    '/api/public/chat/messages',
    {
      schema: { body: chatRequestSchema, response: { 200: chatReplySchema } },
      bodyLimit: 8 * 1024,
      config: { rateLimit: { max: options.messageLimitPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return options.chat.reply(request.body);
    },
  );

  routes.post(
    '/api/public/chat/bookings',
    {
      // The answer names the work order only (decision 018-a): anything else is dropped on the way out.
      schema: {
        headers: idempotencyHeadersSchema,
        body: chatBookingSchema(today()),
        response: { 200: chatBookingResponseSchema, 201: chatBookingResponseSchema },
      },
      // The booking's preferred date cannot be before today in the company's time zone.
      validatorCompiler: validateBodyForToday(chatBookingSchema, today),
      bodyLimit: 8 * 1024,
      config: { rateLimit: { max: options.bookingLimitPer15Minutes, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      const { isReplay, ...booking } = await options.chat.book(request.body, idempotencyKey);
      return reply.status(isReplay ? 200 : 201).header('cache-control', 'no-store').send(booking);
    },
  );

  /**
   * The booking page (issue 21): books an open arrival window. 201 booked; a 409 CONFLICT error when
   * the window was taken meanwhile, its details the open windows now. Limited per client address like the other public
   * forms; the answer names nothing about stored customers or technicians.
   */
  routes.post(
    '/api/public/booking',
    {
      schema: {
        headers: idempotencyHeadersSchema,
        body: onlineBookingSchema,
        response: { 200: onlineBookingBookedSchema, 201: onlineBookingBookedSchema },
      },
      bodyLimit: 8 * 1024,
      config: { rateLimit: { max: options.bookingLimitPer15Minutes, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { isReplay, ...booked } = await options.chat.bookWindow(request.body, request.headers['idempotency-key']);
      return reply.status(isReplay ? 200 : 201).send(booked);
    },
  );
}
