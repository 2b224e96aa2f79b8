import type { FastifyReply } from 'fastify';

/**
 * A 204 without a body: `send()` with nothing, as before the route contracts (no serialisation, no
 * content type). The route's `response: { 204: noContentSchema }` documents it; the typed reply of
 * the zod provider would want a payload, which a 204 never has.
 */
export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.status(204).send();
}
