import http from 'node:http';

export type RecordedRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: unknown };
export type FakeAnswer = { status: number; json?: unknown; text?: string; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 that answers like an outside service (a model API, a webhook).
 * Set `answer` to decide each reply (with extra `headers` such as Retry-After when needed); 'hang'
 * never answers (for timeouts); a promise holds the reply until it resolves. Every request is recorded.
 */
export async function startFakeHttpServer(initial: (request: RecordedRequest) => FakeAnswer | Promise<FakeAnswer>, options: { port?: number } = {}) {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const state = { answer: initial };
  const server = http.createServer((incoming, response) => {
    let raw = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (raw += chunk));
    incoming.on('end', async () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Not JSON: keep the text.
      }
      const recorded = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body };
      requests.push(recorded);
      // An answer may also be a promise: the test holds the reply until it resolves (e.g. until it has edited a row).
      const answer = await state.answer(recorded);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': answer.json === undefined ? 'text/plain' : 'application/json', ...answer.headers });
      response.end(answer.json === undefined ? (answer.text ?? '') : JSON.stringify(answer.json));
    });
  });
  // Port 0 (any free port) unless a fixed one is asked for (a fake run as its own process for browser journeys).
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    state,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
