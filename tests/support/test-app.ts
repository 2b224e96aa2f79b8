import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { StaffRole } from '#shared/enums.ts';
import { buildApp, type AppDependencies } from '#server/app.ts';
import { loadConfig, type AppConfig } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createAuthRepository } from '#server/modules/auth/auth.repository.ts';
import { createStaffService } from '#server/modules/auth/auth.service.ts';
import { stripeWebhookPath } from '#server/modules/invoices/index.ts';
import { hostSessionCookieName, sessionCookieName } from '#server/plugins/session.ts';
import type { FakeStripeServer } from './fake-stripe-server.ts';
import { createTestDatabase } from './test-database.ts';

export type TestContext = { app: FastifyInstance; database: DatabaseHandle; config: AppConfig; close: () => Promise<void> };

/** Files a test's app writes (the e-mail outbox) go to a temporary directory, never ./data. */
const testDataDir = path.join(os.tmpdir(), `hvac-test-${process.pid}`);

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: testDataDir, ...overrides });
}

/** The whole application on a fresh database, driven with inject() (no port). */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    serveClient?: boolean;
    liveStreamLimits?: AppDependencies['liveStreamLimits'];
    onRoute?: AppDependencies['onRoute'];
    logStream?: NodeJS.WritableStream;
    now?: AppDependencies['now'];
    smsSender?: AppDependencies['smsSender'];
  } = {},
): Promise<TestContext> {
  const config = testConfig(options.env);
  const database = await createTestDatabase();
  const app = await buildApp({
    config,
    database,
    logger: false,
    logStream: options.logStream,
    serveClient: options.serveClient ?? false,
    liveStreamLimits: options.liveStreamLimits,
    onRoute: options.onRoute,
    now: options.now,
    smsSender: options.smsSender,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export const testPassword = 'correct horse battery staple';

export async function createStaff(database: DatabaseHandle, email = 'staff@example.com', password = testPassword, role: StaffRole = 'admin') {
  return createStaffService(createAuthRepository(database.db)).createStaffUser({ email, name: 'Pat Staff', password, role });
}

/** A technician's account linked to a technician record (issue 19). */
export async function createTechnicianStaff(database: DatabaseHandle, technicianId: string, email = 'tech@example.com', password = testPassword) {
  return createStaffService(createAuthRepository(database.db)).createStaffUser({ email, name: 'Terry Tech', password, role: 'technician', technicianId });
}

/** The session cookie a response set: `hvac_session`, or `__Host-hvac_session` on an https site. */
export function sessionCookieFrom(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((cookie) => cookie.name === sessionCookieName || cookie.name === hostSessionCookieName)?.value;
}

/** Signs in through the real endpoint and returns the Cookie header value for later requests. */
export async function signIn(app: FastifyInstance, email = 'staff@example.com', password = testPassword, remoteAddress = '127.0.0.2'): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
  const token = sessionCookieFrom(response);
  if (response.statusCode !== 200 || !token) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return `${app.sessionCookie.name}=${token}`;
}

/** The fake Stripe's webhook POSTs, signed as Stripe signs them, into the app (from one of Stripe's addresses). */
export function sendStripeWebhooksTo(fake: FakeStripeServer, context: TestContext): void {
  fake.setWebhookTarget(async ({ body, headers }) => {
    const response = await context.app.inject({ method: 'POST', url: stripeWebhookPath, headers, payload: body, remoteAddress: '3.18.12.63' });
    return { status: response.statusCode, body: response.body };
  });
}
