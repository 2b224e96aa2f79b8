import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName } from '#server/plugins/session.ts';
import { createPostgresTestDatabase } from '#tests/support/test-database.ts';

// SIGTERM as a process manager sends it (issue 10): the real server process (server/main.ts)
// stops accepting connections, lets a request in flight finish, ends the live-update streams
// (else they would hold the close forever) and exits 0.
//
// The request in flight is a chat message whose automation webhook (a real HTTP server on
// 127.0.0.1, below) holds its answer until the test lets it go: slow for as long as the test needs,
// without any timing.
let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let child: ChildProcessWithoutNullStreams | undefined;

type Webhook = { url: string; received: Promise<void>; release: () => void; close: () => Promise<void> };

async function startHeldWebhook(): Promise<Webhook> {
  let markReceived!: () => void;
  const received = new Promise<void>((resolve) => (markReceived = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      markReceived();
      void released.then(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'Answered after the hold.', category: 'general', urgency: 'low', action: 'none' }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    release,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One request on a new connection (no pooled keep-alive one): its status, or the connection error's code. */
function probe(url: string): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.statusCode)));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-shutdown-'));
  if (process.env.TEST_DATABASE_URL) {
    const created = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase?.();
});

/** Resolves with the first JSON log line that `matches`. */
function waitForLog(output: NodeJS.ReadableStream, matches: (record: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (matches(record)) {
          output.off('data', onData);
          resolve(record);
          return;
        }
      }
    };
    output.on('data', onData);
    output.once('end', () => reject(new Error('the server exited before the expected log line')));
  });
}

describe('SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, ends live streams and exits 0', { timeout: 120_000 }, async () => {
    const webhook = await startHeldWebhook();
    try {
      const admin = { email: 'owner@example.com', password: 'shutdown test password' };
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl ?? '',
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          SEED_DEMO: 'false',
          ADMIN_EMAIL: admin.email,
          ADMIN_PASSWORD: admin.password,
          CHAT_WEBHOOK_URL: webhook.url,
          CHAT_TIMEOUT_MS: '120000',
          CLIENT_DIR: path.join(dataDir, 'no-client'),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
      const ready = await waitForLog(child.stdout, (record) => record.msg === 'ready');
      const baseUrl = String(ready.url);

      const login = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
      expect(login.status).toBe(200);
      const cookie = login.headers.getSetCookie().find((header) => header.startsWith(`${sessionCookieName}=`))!.split(';')[0]!;

      // A live-update stream, open and ready.
      const events = await fetch(`${baseUrl}/api/admin/events`, { headers: { cookie } });
      expect(events.status).toBe(200);
      const eventReader = events.body!.getReader();
      let eventText = '';
      while (!eventText.includes('event: ready')) {
        const { value, done } = await eventReader.read();
        if (done) throw new Error('the event stream ended before it was ready');
        eventText += new TextDecoder().decode(value);
      }

      // The request in flight: held at the webhook.
      const chat = fetch(`${baseUrl}/api/public/chat/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Is anyone there?', sessionId: 'shutdown-session-01' }),
      });
      await webhook.received;

      const shuttingDown = waitForLog(child.stdout, (record) => record.msg === 'shutting down');
      child.kill('SIGTERM');
      await shuttingDown;

      // The live stream is ended by the server, not left to hold the close.
      for (;;) {
        const { done } = await eventReader.read();
        if (done) break;
      }

      // New connections are refused once the listener is closed (between the signal and that, a
      // new connection may still be answered 503 or reset).
      const outcomes = new Set<string>();
      for (;;) {
        const outcome = await probe(`${baseUrl}/healthz`);
        outcomes.add(outcome);
        if (outcome === 'ECONNREFUSED') break;
        expect(['200', '503', 'ECONNRESET']).toContain(outcome);
      }
      expect(child.exitCode).toBeNull();

      // The held request completes with its answer, and only then does the process exit.
      webhook.release();
      const answered = await chat;
      expect(answered.status).toBe(200);
      expect(await answered.json()).toMatchObject({ message: 'Answered after the hold.' });
      const code = await exited;
      expect({ code, stdout }).toMatchObject({ code: 0 });
      expect(stderr).toBe('');
    } finally {
      await webhook.close();
    }
  });
});
