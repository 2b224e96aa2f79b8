import http from 'node:http';

export type StreamEvent = { event: string; data: string } | { comment: string } | { retry: number };

/**
 * A real HTTP client for a Server-Sent Events stream: parses what arrives and lets a test wait for
 * a particular event (with a timeout, never a fixed sleep).
 */
export type EventStreamClient = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Everything received so far, in order. */
  received: StreamEvent[];
  /** Resolves with the first event (from `fromIndex` on) that matches; rejects after `timeoutMs`. */
  waitFor: (match: (event: StreamEvent) => boolean, options?: { timeoutMs?: number; fromIndex?: number }) => Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The body of a refused request (non-200). */
  body: () => string;
  close: () => void;
};

export function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8');
      const received: StreamEvent[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let rawBody = '';
      let markEnded: () => void = () => undefined;
      const ended = new Promise<void>((resolveEnded) => (markEnded = resolveEnded));
      response.on('end', () => markEnded());
      response.on('close', () => markEnded());
      response.on('error', () => markEnded());
      response.on('data', (chunk: string) => {
        rawBody += chunk;
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const fields = { event: 'message', data: [] as string[] };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) received.push({ comment: line.slice(1).trim() });
            else if (line.startsWith('retry:')) received.push({ retry: Number(line.slice(6).trim()) });
            else if (line.startsWith('event:')) {
              fields.event = line.slice(6).trim();
              isEvent = true;
            } else if (line.startsWith('data:')) {
              fields.data.push(line.slice(5).trim());
              isEvent = true;
            }
          }
          if (isEvent) received.push({ event: fields.event, data: fields.data.join('\n') });
        }
        for (const wake of [...waiters]) wake();
      });

      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        received,
        ended,
        body: () => rawBody,
        close: () => request.destroy(),
        waitFor: (match, { timeoutMs = 10_000, fromIndex = 0 } = {}) =>
          new Promise((resolveEvent, rejectEvent) => {
            const check = () => {
              const found = received.slice(fromIndex).find(match);
              if (!found) return false;
              finish();
              resolveEvent(found);
              return true;
            };
            const timer = setTimeout(() => {
              finish();
              rejectEvent(new Error(`no matching event within ${timeoutMs} ms; received ${JSON.stringify(received)}`));
            }, timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              waiters.delete(onData);
            };
            const onData = () => void check();
            if (!check()) waiters.add(onData);
          }),
      });
    });
    request.on('error', reject);
  });
}

export const isEvent = (name: string, data?: unknown) => (event: StreamEvent) =>
  'event' in event && event.event === name && (data === undefined || JSON.stringify(JSON.parse(event.data)) === JSON.stringify(data));
