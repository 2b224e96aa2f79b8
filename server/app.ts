import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import path from 'node:path';
import { todayIn } from '#shared/dates.ts';
import { createChatResponder } from './adapters/chat/index.ts';
import { createGeocoder } from './adapters/geocoding/index.ts';
import { createFileSender, createSmtpSender } from './adapters/email/email-sender.ts';
import { createObjectStorage } from './adapters/storage/index.ts';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { chatRoutes } from './modules/chat/chat.routes.ts';
import { createChatService } from './modules/chat/chat.service.ts';
import { customerRoutes } from './modules/customers/customer.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createCustomerService } from './modules/customers/customer.service.ts';
import { createEmailOutbox, type EmailOutbox } from './modules/email/email-outbox.ts';
import { estimateRoutes } from './modules/estimates/estimate.routes.ts';
import { createEstimateService } from './modules/estimates/estimate.service.ts';
import { geocodingRoutes } from './modules/geocoding/geocoding.routes.ts';
import { createGeocodingService, type GeocodingService } from './modules/geocoding/geocoding.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createChangeFeed, type ChangeFeed } from './modules/events/change-feed.ts';
import { eventRoutes } from './modules/events/events.routes.ts';
import { defaultLiveStreamLimits, type LiveStreamLimits } from './modules/events/live-streams.service.ts';
import { leadRoutes } from './modules/leads/lead.routes.ts';
import { createLeadService } from './modules/leads/lead.service.ts';
import { mapRoutes } from './modules/map/map.routes.ts';
import { createMapService } from './modules/map/map.service.ts';
import { notificationRoutes } from './modules/notifications/notification.routes.ts';
import { createNotificationService } from './modules/notifications/notification.service.ts';
import { siteRoutes } from './modules/site/site.routes.ts';
import { workOrderRoutes } from './modules/work-orders/work-order.routes.ts';
import { createWorkOrderService } from './modules/work-orders/work-order.service.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurity, tileImageSource } from './plugins/security.ts';
import { registerSessionGuard } from './plugins/session.ts';
import { registerStaticClient, sendPage } from './plugins/static-client.ts';

export type AppDependencies = {
  config: AppConfig;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** Serve the built client (off in API tests that do not need it). */
  serveClient?: boolean;
  /** Live-update stream limits and timings (tests shorten the heartbeat). */
  liveStreamLimits?: Partial<LiveStreamLimits>;
};

/** Builds the whole application (plugins, then modules). Never listens: main.ts and tests do. */
export async function buildApp({ config, database, logger, serveClient = true, liveStreamLimits }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  // The map's tile server may serve images to every page (the staff map is a client-side screen).
  const tileSource = tileImageSource(config.map.tileUrl);
  const csp = { imageSources: tileSource ? [tileSource] : [] };
  await registerSecurity(app, { isHttpsOnly: config.company.siteUrl.startsWith('https://'), csp });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });

  const auth = createAuthService(createAuthRepository(database.db), config.session);
  registerSessionGuard(app, auth);

  const emailSender = config.email.smtpUrl
    ? createSmtpSender(config.email.smtpUrl)
    : createFileSender(path.join(config.dataDir, 'outbox'));
  const emailOutbox = createEmailOutbox({ db: database.db, sender: emailSender, from: config.email.from, log: app.log });
  app.addHook('onClose', () => emailOutbox.stop());
  const estimates = createEstimateService({ db: database.db, outbox: emailOutbox, company: config.company, log: app.log });
  const chat = createChatService({
    db: database.db,
    ...createChatResponder(config, app.log),
    company: config.company,
    timeZone: config.businessTimeZone,
    log: app.log,
  });

  await app.register(healthRoutes, { database });
  await app.register(siteRoutes, { company: config.company });
  await app.register(authRoutes, { auth, loginLimitPerMinute: config.loginLimitPerMinute });
  await app.register(estimateRoutes, {
    estimates,
    timeZone: config.businessTimeZone,
    limitPer15Minutes: config.publicFormLimitPer15Minutes,
  });
  // One LISTEN per instance, fanned out to the live-update streams; started once the app is ready.
  const changeFeed = createChangeFeed({ database, log: app.log });
  app.addHook('onReady', () => changeFeed.start());
  app.addHook('onClose', () => changeFeed.close());
  await app.register(eventRoutes, {
    feed: changeFeed,
    limits: { ...defaultLiveStreamLimits, ...liveStreamLimits },
    isSessionLive: (token) => auth.isSessionLive(token),
  });
  await app.register(notificationRoutes, { notifications: createNotificationService({ db: database.db }) });
  await app.register(customerRoutes, {
    customers: createCustomerService({ db: database.db, storage: createObjectStorage(config), log: app.log }),
  });
  await app.register(workOrderRoutes, {
    workOrders: createWorkOrderService({ db: database.db, timeZone: config.businessTimeZone }),
    timeZone: config.businessTimeZone,
  });
  await app.register(dashboardRoutes, { dashboard: createDashboardService({ db: database.db, timeZone: config.businessTimeZone }) });
  await app.register(mapRoutes, {
    map: createMapService({
      db: database.db,
      timeZone: config.businessTimeZone,
      tiles: { url: config.map.tileUrl, attribution: config.map.tileAttribution },
    }),
  });
  await app.register(leadRoutes, {
    leads: createLeadService({ db: database.db, today: () => todayIn(config.businessTimeZone), timeZone: config.businessTimeZone }),
    timeZone: config.businessTimeZone,
  });
  await app.register(chatRoutes, {
    chat,
    timeZone: config.businessTimeZone,
    messageLimitPerMinute: config.chat.messageLimitPerMinute,
    bookingLimitPer15Minutes: config.publicFormLimitPer15Minutes,
  });

  // Geocoding batches run in this process after the request that starts them; a batch left running
  // by a crash is marked interrupted once the app is ready, and a stop leaves the running one resumable.
  const geocoding = createGeocodingService({
    db: database.db,
    kind: database.kind,
    geocoder: createGeocoder(config),
    pauseMs: config.geocodingBatch.pauseMs,
    rateLimitBackoffMs: config.geocodingBatch.rateLimitBackoffMs,
    log: app.log,
  });
  app.addHook('onReady', () => geocoding.recover());
  app.addHook('onClose', () => geocoding.close());
  await app.register(geocodingRoutes, { geocoding });

  const resolvePage = serveClient ? await registerStaticClient(app, config.clientDir, csp) : undefined;
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    // A missing file (a stale /assets/x.js, /robots.txt) is a 404, not the app shell.
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(pathname);
    const page = isPageRequest ? resolvePage?.(request.url) : undefined;
    if (page) return sendPage(request, reply, page);
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` } });
  });

  app.decorate('authService', auth);
  app.decorate('emailOutbox', emailOutbox);
  app.decorate('changeFeed', changeFeed);
  app.decorate('geocoding', geocoding);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    authService: ReturnType<typeof createAuthService>;
    emailOutbox: EmailOutbox;
    changeFeed: ChangeFeed;
    geocoding: GeocodingService;
  }
}
