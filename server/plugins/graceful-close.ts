import type { FastifyInstance } from 'fastify';

/**
 * Shutdown (SIGTERM) lets requests in flight finish, but their keep-alive connections would then
 * stay open, idle, until the keep-alive timeout (72 s) and hold the close that long: longer than
 * main.ts waits. Once closing, an answer tells the client the connection ends with it
 * (Connection: close), and a connection that has just gone idle is closed at once. New requests
 * get 503 meanwhile (Fastify's return503OnClosing) and new connections are refused.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (isClosing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async () => {
    // A response that started before the close (a CSV download) kept its keep-alive header.
    if (isClosing) setImmediate(() => app.server.closeIdleConnections());
  });
}
