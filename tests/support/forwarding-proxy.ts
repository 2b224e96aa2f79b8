import http from 'node:http';

/**
 * A real reverse proxy on 127.0.0.1 in front of a listening app, doing what nginx's
 * `proxy_add_x_forwarded_for` does: it appends the address it saw to the X-Forwarded-For the client
 * sent (a client may send any value there) and sets X-Forwarded-Proto to `proto`.
 */
export async function startForwardingProxy(target: { port: number }, options: { proto?: 'http' | 'https' } = {}) {
  const server = http.createServer((incoming, outgoing) => {
    const seen = incoming.socket.remoteAddress ?? '';
    const sent = incoming.headers['x-forwarded-for'];
    const headers = {
      ...incoming.headers,
      'x-forwarded-for': sent ? `${Array.isArray(sent) ? sent.join(', ') : sent}, ${seen}` : seen,
      'x-forwarded-proto': options.proto ?? 'http',
    };
    const upstream = http.request({ host: '127.0.0.1', port: target.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => {
      outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
