import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import path from 'node:path';
import { todayIn } from '#shared/dates.ts';
import { createChatResponder } from './adapters/chat/index.ts';
import { createGeocoder } from './adapters/geocoding/index.ts';
import { createFileSender, createSmtpSender } from './adapters/email/email-sender.ts';
import { createSmsSender } from './adapters/sms/index.ts';
import { createObjectStorage } from './adapters/storage/index.ts';
import { fastifyTrustProxy, type AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { systemActors } from './modules/audit/index.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { chatRoutes } from './modules/chat/chat.routes.ts';
import { createChatService } from './modules/chat/chat.service.ts';
import { customerRoutes } from './modules/customers/customer.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createCustomerService } from './modules/customers/customer.service.ts';
import { createEmailOutbox, type EmailOutbox } from './modules/email/email-outbox.ts';
import type { SmsSender } from './adapters/sms/sms-sender.ts';
import {
  createInboundTextService,
  createMessagingRepository,
  createMessagingRunner,
  createMessagingService,
  inboundTextRoutes,
  messagingRoutes,
  type MessagingRunner,
} from './modules/messaging/index.ts';
import { estimateRoutes } from './modules/estimates/estimate.routes.ts';
import { createNotificationRepository } from './modules/notifications/notification.repository.ts';
import { createEstimateService } from './modules/estimates/estimate.service.ts';
import { exportRoutes } from './modules/exports/export.routes.ts';
import { createExportService } from './modules/exports/export.service.ts';
import { geocodingRoutes } from './modules/geocoding/geocoding.routes.ts';
import { createGeocodingService, type GeocodingService } from './modules/geocoding/geocoding.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createChangeFeed, type ChangeFeed } from './modules/events/change-feed.ts';
import { eventRoutes } from './modules/events/events.routes.ts';
import { createLiveStreamRegistry, defaultLiveStreamLimits, type LiveStreamLimits } from './modules/events/live-streams.service.ts';
import { customerMatchRoutes } from './modules/customer-matches/customer-match.routes.ts';
import { createCustomerMatchService } from './modules/customer-matches/customer-match.service.ts';
import { leadRoutes } from './modules/leads/lead.routes.ts';
import { createLeadRepository } from './modules/leads/lead.repository.ts';
import { createLeadService } from './modules/leads/lead.service.ts';
import { mapRoutes } from './modules/map/map.routes.ts';
import { createMapService } from './modules/map/map.service.ts';
import { notificationRoutes } from './modules/notifications/notification.routes.ts';
import { createNotificationService } from './modules/notifications/notification.service.ts';
import { createIntegrationsService } from './modules/settings/integrations.service.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { siteRoutes } from './modules/site/site.routes.ts';
import { createStaffRepository } from './modules/staff/staff.repository.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { createStaffAccountService } from './modules/staff/staff.service.ts';
import { technicianSettingsRoutes } from './modules/technicians/technician.routes.ts';
import { createTechnicianService } from './modules/technicians/technician.service.ts';
import { techRoutes } from './modules/tech/tech.routes.ts';
import { createTechService } from './modules/tech/tech.service.ts';
import { pruneTechActions } from './modules/tech/tech-housekeeping.ts';
import { createDocumentLinkRepository } from './modules/document-links/document-links.repository.ts';
import { createDocumentLinkService } from './modules/document-links/index.ts';
import { calendarRoutes, createCalendarRepository, createCalendarService, createTechnicianBookings } from './modules/calendar/index.ts';
import { createCustomerRepository } from './modules/customers/customer.repository.ts';
import { createWorkOrderRepository, createWorkOrderService, workOrderRoutes } from './modules/work-orders/index.ts';
import { createPriceBookService, priceBookRoutes } from './modules/price-book/index.ts';
import { billingSettingsRoutes, createBillingSettingsService } from './modules/billing-settings/index.ts';
import { availabilityPublicRoutes, availabilityRoutes, createAvailabilityService } from './modules/availability/index.ts';
import { createVisitService, visitRoutes } from './modules/visits/index.ts';
import {
  agreementRoutes,
  agreementSignupRoutes,
  createAgreementRepository,
  createAgreementService,
  createAgreementSignupPayments,
  createAgreementSignupService,
  type AgreementService,
} from './modules/agreements/index.ts';
import { createQuoteService, quotePublicRoutes, quoteRoutes } from './modules/quotes/index.ts';
import { createInvoiceSending, createInvoiceService, createOnlineInvoices, invoiceDocumentRoutes, invoicePublicRoutes, invoiceRoutes, markPrivate } from './modules/invoices/index.ts';
import { createPaymentGateway } from './adapters/payments/index.ts';
import { markStartup } from './lib/startup-timing.ts';
import { loggerOptions, registerRequestIdHeader, requestIdFor } from './logging.ts';
import { postgresRateLimitStore } from './plugins/rate-limit-store.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerGracefulClose } from './plugins/graceful-close.ts';
import { registerSecurity, tileImageSource } from './plugins/security.ts';
import { registerNulCharacterGuard } from './plugins/input-text.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSessionGuard } from './plugins/session.ts';
import { registerStaticClient, sendPage } from './plugins/static-client.ts';

export type AppDependencies = {
  config: AppConfig;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** Where the logs go instead of stdout, with the server's own logger settings (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** Serve the built client (off in API tests that do not need it). */
  serveClient?: boolean;
  /** Live-update stream limits and timings (tests shorten the heartbeat). */
  liveStreamLimits?: Partial<LiveStreamLimits>;
  /** Told about every route as it is registered (tests enumerate the admin routes with it). */
  onRoute?: (route: RouteOptions) => void;
  /** The clock of the login throttle, the sessions and customer messaging (tests move time forward instead of sleeping). */
  now?: () => Date;
  /** Where texts go (tests pass a recording sender). */
  smsSender?: SmsSender;
};

/** Customer invoice and quote links (page loads, PDF): per client address and minute; checkouts and answers a third of it. */
export const publicInvoiceLimitPerMinute = 60;

function replacedBelow(): never {
  throw new Error('the zod compilers replace this factory (app.setValidatorCompiler, app.setSerializerCompiler)');
}

/** Builds the whole application (plugins, then modules). Never listens: main.ts and tests do. */
export async function buildApp({ config, database, logger, logStream, serveClient = true, liveStreamLimits, onRoute, now, smsSender }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logStream ? loggerOptions(config.logLevel, logStream) : (logger ?? loggerOptions(config.logLevel)),
    genReqId: requestIdFor,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 64 * 1024,
    // Every schema is zod's, compiled by the compilers set just below, which replace these
    // factories. Without factories here, Fastify would load Ajv and fast-json-stringify at
    // start-up to make default compilers it never uses (decision 023-b).
    schemaController: { compilersFactory: { buildValidator: replacedBelow, buildSerializer: replacedBelow } },
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerNulCharacterGuard(app);
  registerRequestIdHeader(app, config.instanceName);
  registerGracefulClose(app);

  // The map's tile server may serve images to every page (the staff map is a client-side screen).
  const tileSource = tileImageSource(config.map.tileUrl);
  const csp = { imageSources: tileSource ? [tileSource] : [] };
  await registerSecurity(app, { siteUrl: config.company.siteUrl, csp });
  await app.register(cookie);
  // Several instances on one PostgreSQL database count each client's requests in one place (issue 23).
  await app.register(rateLimit, { global: false, ...(database.kind === 'postgres' ? { store: postgresRateLimitStore(database.db) } : {}) });

  const authRepository = createAuthRepository(database.db);
  const auth = createAuthService(authRepository, config.session, now);
  // Customer links to quotes and invoices (issue 20, decision 024-c).
  const documentLinks = createDocumentLinkService({ repository: createDocumentLinkRepository(database.db), ...(now ? { now } : {}) });
  registerSessionGuard(app, auth, { siteUrl: config.company.siteUrl });
  // Before any route: the OpenAPI document is built from the routes' schemas as they register.
  await registerOpenApi(app, { company: config.company });

  const emailSender = config.email.smtpUrl
    ? createSmtpSender(config.email.smtpUrl)
    : createFileSender(path.join(config.dataDir, 'outbox'));
  const emailOutbox = createEmailOutbox({
    db: database.db,
    sender: emailSender,
    from: config.email.from,
    log: app.log,
    retentionDays: config.email.retentionDays,
  });
  app.addHook('onClose', () => emailOutbox.stop());
  const estimates = createEstimateService({
    db: database.db,
    outbox: emailOutbox,
    company: config.company,
    log: app.log,
    notifications: createNotificationRepository(database.db),
    timeZone: config.businessTimeZone,
    now,
  });
  const chatResponder = createChatResponder(config, app.log);
  // Online booking (issue 21, decision 026-c): the open windows, Settings -> Online booking, and the booking page's claims.
  const availability = createAvailabilityService({ db: database.db, timeZone: config.businessTimeZone, ...(now ? { now } : {}) });
  // The customer's visit link (issue 21): made with each online booking, opened at /visit/:token.
  const visits = createVisitService({ db: database.db, documentLinks, availability, company: config.company, timeZone: config.businessTimeZone, ...(now ? { now } : {}) });
  const chat = createChatService({
    availability,
    createVisitLink: (executor, workOrderId, visitDate) => visits.createLink(executor, workOrderId, visitDate),
    db: database.db,
    ...chatResponder,
    company: config.company,
    timeZone: config.businessTimeZone,
    log: app.log,
    customerRepository: createCustomerRepository,
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
  const streamLimits = { ...defaultLiveStreamLimits, ...liveStreamLimits };
  const liveStreams = createLiveStreamRegistry(streamLimits);
  await app.register(eventRoutes, {
    feed: changeFeed,
    limits: streamLimits,
    isSessionLive: (token) => auth.isSessionLive(token),
    streams: liveStreams,
  });
  await app.register(staffRoutes, {
    staffService: createStaffAccountService({
      db: database.db,
      staff: createStaffRepository(database.db),
      auth: createAuthRepository(database.db),
      outbox: emailOutbox,
      company: config.company,
      onSessionsEnded: (sessionIds) => liveStreams.endSessions(sessionIds),
    }),
    limitPerMinute: config.loginLimitPerMinute,
  });
  await app.register(notificationRoutes, { notifications: createNotificationService({ db: database.db }) });
  const storage = createObjectStorage(config);
  const customerService = createCustomerService({ db: database.db, storage, log: app.log });
  await app.register(customerRoutes, { customers: customerService });
  // Work orders and the calendar share the double-booking rule (the calendar's) and the work-order repository.
  const bookings = createTechnicianBookings(createCalendarRepository);
  await app.register(workOrderRoutes, {
    workOrders: createWorkOrderService({
      db: database.db,
      timeZone: config.businessTimeZone,
      workOrderRepository: createWorkOrderRepository,
      customerRepository: createCustomerRepository,
      bookings,
    }),
    timeZone: config.businessTimeZone,
  });
  // Customer messaging (decision 021-a): planned from work orders' changes (a trigger queues them;
  // the change feed pokes the runner on another instance's commits too), sent by e-mail and text.
  const sms = smsSender ?? createSmsSender({ ...config.sms, fileDir: path.join(config.dataDir, 'outbox', 'sms') });
  const messagingRunner = createMessagingRunner({
    db: database.db,
    outbox: emailOutbox,
    sms,
    company: config.company,
    timeZone: config.businessTimeZone,
    log: app.log,
    now,
    changes: changeFeed,
    createDocumentLink: (executor, link) => documentLinks.create(executor, link),
  });
  app.addHook('onClose', () => messagingRunner.stop());
  await app.register(messagingRoutes, {
    messaging: createMessagingService({
      db: database.db,
      messagingRepository: createMessagingRepository,
      workOrderRepository: createWorkOrderRepository,
      onQueued: () => messagingRunner.kick(),
      timeZone: config.businessTimeZone,
      outbox: emailOutbox,
      sms,
      now,
    }),
  });
  // The technician app's API (issue 19, decision 022-a): a technician's own visits, their steps
  // (en route goes through messaging as the office's button does), photos, the signature and
  // payments on site through the invoices' rule (decision 025-a).
  await app.register(techRoutes, {
    tech: createTechService({
      db: database.db,
      timeZone: config.businessTimeZone,
      storage,
      customers: customerService,
      notifications: createNotificationRepository(database.db),
      onWorkOrderMessaging: () => messagingRunner.kick(),
      // The invoice service is made below, with the office's billing; a payment comes long after start-up.
      payments: { recordPayment: (...args) => invoices.recordPayment(...args) },
      now,
    }),
  });
  // Texts customers send (STOP / START / HELP, C / R, anything else), from the provider's signed webhook.
  await app.register(inboundTextRoutes, {
    inbound: createInboundTextService({
      db: database.db,
      messagingRepository: createMessagingRepository,
      notifications: createNotificationRepository(database.db),
      company: config.company,
      timeZone: config.businessTimeZone,
      now,
    }),
    smsAuthToken: config.sms.api?.authToken,
    siteUrl: config.company.siteUrl,
  });
  await app.register(calendarRoutes, {
    calendar: createCalendarService({
      db: database.db,
      timeZone: config.businessTimeZone,
      calendarRepository: createCalendarRepository,
      workOrderRepository: createWorkOrderRepository,
      bookings,
    }),
  });
  await app.register(dashboardRoutes, { dashboard: createDashboardService({ db: database.db, timeZone: config.businessTimeZone }) });
  // Invoices, credit notes and payments for the office (issue 20, decision 024-g); sent through
  // messaging, the customer's link, its PDF and online payment (decision 024-h).
  const invoiceSending = createInvoiceSending({ db: database.db, timeZone: config.businessTimeZone, now, onQueued: () => messagingRunner.kick() });
  // Quotes, good / better / best, and the customer's quote link (issue 20, decision 025-c).
  const quotes = createQuoteService({
    db: database.db,
    timeZone: config.businessTimeZone,
    company: config.company,
    storage,
    documentLinks,
    notifications: createNotificationRepository(database.db),
    workOrderRepository: createWorkOrderRepository,
    onQueued: () => messagingRunner.kick(),
    now,
  });
  await app.register(quoteRoutes, { quotes });
  await app.register(quotePublicRoutes, { quotes, limitPerMinute: publicInvoiceLimitPerMinute });
  const invoices = createInvoiceService({
    db: database.db,
    timeZone: config.businessTimeZone,
    company: config.company,
    now,
    sending: invoiceSending,
    approvedQuoteLines: (tx, workOrderId) => quotes.approvedLinesFor(tx, workOrderId),
    onVoided: (invoiceId) => void onlineInvoices.expireOpenCheckouts(invoiceId).catch((error: unknown) => app.log.error({ err: error }, 'expiring the checkouts of a voided invoice failed')),
  });
  await app.register(invoiceRoutes, { invoices });
  await app.register(invoiceDocumentRoutes, { invoices, sending: invoiceSending });
  const paymentGateway = createPaymentGateway(config.payments);
  // A maintenance plan sign-up's online payment (decision 027-c): its facts reach Stripe's one webhook first.
  const signupPayments = createAgreementSignupPayments({ db: database.db, gateway: paymentGateway, siteUrl: config.company.siteUrl, log: app.log, ...(now ? { now } : {}) });
  const onlineInvoices = createOnlineInvoices({
    db: database.db,
    invoices,
    documentLinks,
    gateway: paymentGateway,
    company: config.company,
    timeZone: config.businessTimeZone,
    log: app.log,
    otherPayments: signupPayments.handleFact,
    now,
  });
  await app.register(invoicePublicRoutes, { online: onlineInvoices, limitPerMinute: publicInvoiceLimitPerMinute });
  const map = createMapService({
    db: database.db,
    timeZone: config.businessTimeZone,
    tiles: { url: config.map.tileUrl, attribution: config.map.tileAttribution },
  });
  app.addHook('onClose', () => map.close());
  await app.register(mapRoutes, { map });
  await app.register(leadRoutes, {
    leads: createLeadService({
      db: database.db,
      today: () => todayIn(config.businessTimeZone),
      timeZone: config.businessTimeZone,
      customerRepository: createCustomerRepository,
      workOrderRepository: createWorkOrderRepository,
    }),
    timeZone: config.businessTimeZone,
  });
  await app.register(customerMatchRoutes, { customerMatches: createCustomerMatchService({ db: database.db, workOrderRepository: createWorkOrderRepository }) });
  await app.register(exportRoutes, { exports: createExportService({ db: database.db, timeZone: config.businessTimeZone, leadRepository: createLeadRepository }) });
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

  // Settings (issue 10): admins only, by the session guard's rule for /api/admin/settings/*.
  await app.register(auditRoutes, { db: database.db });
  await app.register(technicianSettingsRoutes, {
    technicians: createTechnicianService({
      db: database.db,
      endSessionsOfTechnician: (tx, technicianId) => authRepository.deleteSessionsOfTechnician(technicianId, tx),
      onSessionsEnded: (sessionIds) => liveStreams.endSessions(sessionIds),
    }),
  });
  await app.register(settingsRoutes, {
    company: config.company,
    integrations: createIntegrationsService({
      config,
      emailSender,
      chatResponder: chatResponder.responder,
      mapTileUrl: config.map.tileUrl,
    }),
  });

  // Billing (issue 20, decision 024-f): the price book (staff read, admins change) and Settings -> Billing.
  await app.register(priceBookRoutes, { priceBook: createPriceBookService({ db: database.db }) });
  await app.register(billingSettingsRoutes, { billingSettings: createBillingSettingsService({ db: database.db }) });

  // Online booking (issue 21, decision 026-c): Settings -> Online booking and the open windows.
  await app.register(availabilityRoutes, { availability });
  await app.register(availabilityPublicRoutes, { availability, limitPerMinute: config.bookingWindowsLimitPerMinute });
  await app.register(visitRoutes, { visits, limitPerMinute: config.bookingWindowsLimitPerMinute });
  // Maintenance agreements (issue 22, decision 027-b): sold from the profile; their visits and
  // renewals come from the hourly run (start.ts), claimed so that several instances do each once.
  const agreements = createAgreementService({
    db: database.db,
    repository: createAgreementRepository,
    timeZone: config.businessTimeZone,
    company: config.company,
    outbox: emailOutbox,
    createRenewalInvoice: (tx, draft) => invoices.createDraftIn(tx, draft, systemActors.system),
    leadDays: config.agreementVisitLeadDays,
    ...(now ? { now } : {}),
  });
  await app.register(agreementRoutes, { agreements });
  // The site's plan sign-up: stored as a lead and a sign-up; the office confirms it into an agreement.
  await app.register(agreementSignupRoutes, {
    signups: createAgreementSignupService({
      db: database.db,
      agreements,
      payments: signupPayments,
      invoices: { createIssuedIn: invoices.createIssuedIn, recordPaymentIn: onlineInvoices.recordPaymentIn },
      customerRepository: createCustomerRepository,
      leadRepository: createLeadRepository,
      notifications: createNotificationRepository(database.db),
      outbox: emailOutbox,
      company: config.company,
      timeZone: config.businessTimeZone,
      log: app.log,
      ...(now ? { now } : {}),
    }),
    payments: signupPayments,
    limitPer15Minutes: config.publicFormLimitPer15Minutes,
    statusLimitPerMinute: publicInvoiceLimitPerMinute,
  });

  const resolvePage = serveClient ? await registerStaticClient(app, config.clientDir, csp) : undefined;
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    // A missing file (a stale /assets/x.js, /robots.txt) is a 404, not the app shell.
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(pathname);
    const page = isPageRequest ? resolvePage?.(request.url) : undefined;
    if (page) {
      // A customer's invoice, quote or visit link carries its secret in the path (decisions 024-h, 025-c, 027-a).
      if (/^\/(invoice|quote|visit)\//i.test(pathname)) markPrivate(reply);
      return sendPage(request, reply, page);
    }
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` } });
  });

  app.decorate('authService', auth);
  // The hourly housekeeping (start.ts): expired sessions and old login attempts; the technician
  // app's idempotency records past their window (decision 022-a, "Later"); expired customer links
  // to quotes and invoices (decision 024-c). Each runs on its own.
  app.decorate('housekeeping', async () => {
    const results = await Promise.allSettled([
      auth.purgeExpired(),
      pruneTechActions(database.db, now?.() ?? new Date()),
      documentLinks.deleteExpired(now?.() ?? new Date()),
    ]);
    for (const result of results) if (result.status === 'rejected') app.log.warn({ err: result.reason }, 'housekeeping failed');
  });
  app.decorate('emailOutbox', emailOutbox);
  app.decorate('messaging', messagingRunner);
  app.decorate('changeFeed', changeFeed);
  app.decorate('agreements', agreements);
  app.decorate('geocoding', geocoding);
  markStartup('app built');
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    authService: ReturnType<typeof createAuthService>;
    housekeeping: () => Promise<void>;
    emailOutbox: EmailOutbox;
    messaging: MessagingRunner;
    changeFeed: ChangeFeed;
    geocoding: GeocodingService;
    /** Maintenance agreements: `runDue()` renews, expires, reminds, bills the months due and generates the visits due (hourly, start.ts). */
    agreements: AgreementService;
  }
}
