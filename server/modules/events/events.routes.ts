import type { FastifyInstance } from 'fastify';
import { mediaResponse } from '#shared/api.ts';
import type { LiveChange } from '#shared/live-events.ts';
import { readSessionToken } from '#server/plugins/session.ts';
import type { ChangeFeed } from './change-feed.ts';
import { createLiveStreamRegistry, type LiveStreamLimits, type LiveStreamRegistry } from './live-streams.service.ts';

const readyEvent = 'event: ready\ndata: {}\n\n';
const eventStreamSchema = {
  response: { 200: mediaResponse('text/event-stream', 'Server-Sent Events: `ready`, then a `change` (a LiveChange) per committed change') },
};

/**
 * GET /api/admin/events: the live-update feed as Server-Sent Events (contract: shared/live-events.ts).
 * The session guard has already checked the session (401 otherwise). The reply is hijacked and
 * written raw: Fastify's serialisation would wait for the end of a response that never ends.
 */
export async function eventRoutes(
  app: FastifyInstance,
  options: {
    feed: ChangeFeed;
    limits: LiveStreamLimits;
    isSessionLive: (token: string | undefined) => Promise<boolean>;
    /** The registry of open streams, when the caller also needs it (to end a session's streams). */
    streams?: LiveStreamRegistry;
  },
): Promise<void> {
  const { feed, limits } = options;
  const streams = options.streams ?? createLiveStreamRegistry(limits);
  // Before the server stops accepting: end every stream, else close() would wait for them forever.
  app.addHook('preClose', async () => streams.endAll());

  // No automatic HEAD route: it would open a stream that never sends its body.
  app.get('/api/admin/events', { exposeHeadRoute: false, schema: eventStreamSchema }, async (request, reply) => {
    const response = reply.raw;
    const token = readSessionToken(request);
    let isClosed = false;
    let unsubscribe: () => void = () => undefined;
    const write = (text: string) => {
      if (!isClosed) response.write(text);
    };

    const heartbeat = setInterval(() => {
      write(': heartbeat\n\n');
      // A stream must not outlive its session (logout, expiry): the reconnection then gets 401.
      // The check does not count as activity, so an open tab does not keep a session alive.
      options.isSessionLive(token).then(
        (isLive) => (isLive ? undefined : end()),
        (error: unknown) => request.log.warn({ err: error }, 'live updates: session re-check failed'),
      );
    }, limits.heartbeatMs);
    function end(): void {
      if (isClosed) return;
      isClosed = true;
      clearInterval(heartbeat);
      unsubscribe();
      release();
      response.end();
    }
    let release: () => void = () => undefined;
    try {
      release = streams.admit(request.sessionId!, end);
    } catch (error) {
      clearInterval(heartbeat);
      throw error;
    }

    reply.hijack();
    response.on('close', end);
    response.on('error', end);
    // Security headers (helmet) and the guard's headers were set on the reply before the hijack.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) response.setHeader(name, value);
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    write(`retry: ${limits.retryMs}\n\n`);

    // `ready` promises that changes from now on arrive: only once the database LISTEN is in place.
    await Promise.race([feed.whenListening(), new Promise((resolve) => response.once('close', resolve))]);
    if (isClosed) return;
    write(readyEvent);
    unsubscribe = feed.subscribe({
      onChange: (change: LiveChange) => write(`event: change\ndata: ${JSON.stringify(change)}\n\n`),
      onResync: () => write(readyEvent),
    });
  });
}
