import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { passwordLength, passwordRuleProblem } from '#shared/auth.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { geocoderNames, geocodingMessages, type GeocoderName } from '#shared/geocoding.ts';
import { generationLeadDays } from '#shared/agreement.ts';

/** The only reader of process.env on the server. Invalid configuration stops the start. */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * The service map's tiles (issue 9): a Leaflet URL template ({z}/{x}/{y}, optionally {s} for
 * subdomains, {r} for retina) and the attribution the tile provider requires. The template's origin
 * is added to the CSP's img-src (plugins/security.ts). A path ('/tiles/{z}/{x}/{y}.png') serves
 * tiles from this server.
 */
const emptyAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const mapEnvSchema = z.object({
  MAP_TILE_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .trim()
      .regex(/^(https?:\/\/[^/\s?#]+)?\/\S*$/, 'must be an http(s):// URL template or a path starting with /')
      .refine((value) => value.includes('{z}') && value.includes('{x}') && /\{-?y\}/.test(value), 'must contain {z}, {x} and {y}')
      .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  ),
  MAP_TILE_ATTRIBUTION: z.preprocess(emptyAsUnset, z.string().trim().min(1).max(500).default('&copy; OpenStreetMap contributors')),
});

/**
 * Which peers may tell the client's address and scheme (X-Forwarded-For, -Proto, -Host): `false`
 * (nobody: the socket's peer is the client), a hop count (that many proxies in front of the server,
 * each trusted to append the address it saw), or the proxies' addresses and CIDR ranges (plus
 * proxy-addr's names loopback, linklocal, uniquelocal). `true` (every hop) is refused: any client
 * could then pick its own address. Decision 018-b-client-addresses.
 */
export type TrustProxySetting = false | number | readonly string[];

const trustProxyNames = ['loopback', 'linklocal', 'uniquelocal'];
const trustProxyAdvice = 'set the number of proxies in front of the server (TRUST_PROXY=1 for one reverse proxy) or their addresses (TRUST_PROXY=127.0.0.1,10.0.0.0/8)';

function isProxyAddress(entry: string): boolean {
  if (trustProxyNames.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const trustProxySchema = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .trim()
    .default('false')
    .transform((raw, context): TrustProxySetting => {
      const value = raw.toLowerCase();
      if (['false', 'no', '0'].includes(value)) return false;
      if (['true', 'yes'].includes(value)) {
        context.addIssue({ code: 'custom', message: `true would trust every X-Forwarded-For hop, so any client could pick its own address: ${trustProxyAdvice}` });
        return z.NEVER;
      }
      if (/^\d+$/.test(value)) {
        const hops = Number(value);
        if (hops > 10) context.addIssue({ code: 'custom', message: 'a hop count must be between 0 and 10' });
        return hops === 0 ? false : hops;
      }
      const entries = value.split(',').map((entry) => entry.trim());
      const invalid = entries.filter((entry) => !isProxyAddress(entry));
      if (invalid.length > 0) {
        context.addIssue({ code: 'custom', message: `not an address or CIDR range: ${invalid.map((entry) => JSON.stringify(entry)).join(', ')}; ${trustProxyAdvice}` });
        return z.NEVER;
      }
      return entries;
    }),
);

/**
 * Fastify's trustProxy option for a setting. A hop count becomes a function: Fastify 5 reads a
 * bare number as "trust no peer" (it cannot check the immediate peer), so it would silently ignore
 * the proxy. Hop i (0 = the socket's peer) is trusted while i < count, as Express does.
 */
export function fastifyTrustProxy(setting: TrustProxySetting): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return [...setting];
}

const smsVariables = ['SMS_API_URL', 'SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const;
const stripeVariables = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
const storageVariables = ['STORAGE_URL', 'STORAGE_BUCKET', 'STORAGE_ACCESS_KEY_ID', 'STORAGE_SECRET_ACCESS_KEY'] as const;

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** PostgreSQL only: longest statement the server's pool runs before cancelling it (0: no limit). */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
    ADMIN_EMAIL: z.email().optional().or(z.literal('').transform(() => undefined)),
    ADMIN_PASSWORD: z
      .string()
      .min(passwordLength.min, `must be at least ${passwordLength.min} characters`)
      .max(passwordLength.max, `must be at most ${passwordLength.max} characters`)
      .optional()
      .or(z.literal('').transform(() => undefined)),
    SEED_DEMO: booleanFlag.default(true),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
    SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
    TRUST_PROXY: trustProxySchema,
    // Several instances behind a load balancer (issue 23): each names itself in X-Served-By.
    INSTANCE_NAME: z
      .string()
      .trim()
      .regex(/^[\w.-]{1,64}$/, 'INSTANCE_NAME: letters, digits, dots, dashes and underscores, at most 64')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    CLIENT_DIR: z.string().min(1).default('./build/client'),
    // Geocoding batches (issue 9; the providers' own variables are with GEOCODER).
    /** Pause between two provider calls of a batch (the spec's 500 ms; a provider's own minimum wins). */
    GEOCODER_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(500),
    /** First wait after a rate-limit answer that says no Retry-After; doubled on each further attempt. */
    GEOCODER_BACKOFF_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    EMAIL_FROM: z.string().trim().min(3).optional().or(z.literal('').transform(() => undefined)),
    /** Days a sent (or finally failed) e-mail is kept before it is deleted, with its .eml file in file mode. */
    EMAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    CHAT_WEBHOOK_URL: z.url().optional().or(z.literal('').transform(() => undefined)),
    CHAT_API_URL: z.url().optional().or(z.literal('').transform(() => undefined)),
    CHAT_API_KEY: z.string().optional().or(z.literal('').transform(() => undefined)),
    CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
    CHAT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
    // Text messages (issue 18): a Twilio-compatible REST API; unset, texts are files in DATA_DIR/outbox/sms.
    SMS_API_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
    SMS_ACCOUNT_SID: z.preprocess(emptyAsUnset, z.string().trim().min(1).max(100).optional()),
    SMS_AUTH_TOKEN: z.preprocess(emptyAsUnset, z.string().trim().min(1).max(200).optional()),
    SMS_FROM: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .trim()
        .regex(/^\+[1-9]\d{7,14}$/, 'must be a phone number in E.164 form, e.g. +18435550100')
        .optional(),
    ),
    /** The longest wait for the SMS API's answer to one send. */
    SMS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
    // Online card payment (issue 20, decision 024-e): Stripe Checkout; unset, no online payment.
    STRIPE_SECRET_KEY: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .trim()
        .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,247}$/, 'must be a Stripe secret key (sk_live_..., sk_test_..., or a restricted key rk_...), not the publishable key pk_...')
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .trim()
        .regex(/^whsec_[A-Za-z0-9+/=]{8,250}$/, "must be the webhook endpoint's signing secret (whsec_...)")
        .optional(),
    ),
    STRIPE_API_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://api.stripe.com')),
    /** The longest wait for one answer of Stripe's API. */
    STRIPE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
    // Photos in an S3-compatible store (issue 23, decision 028-b); unset, files under DATA_DIR/uploads.
    STORAGE_URL: z.preprocess(
      emptyAsUnset,
      z
        .url({ protocol: /^https?$/, error: 'must be the endpoint as an http:// or https:// URL, e.g. https://s3.us-east-1.amazonaws.com' })
        .refine((value) => /^https?:\/\/[^/?#]+\/?$/.test(value), 'must be the endpoint alone (scheme, host, port), without a path: the bucket goes in STORAGE_BUCKET')
        .optional(),
    ),
    STORAGE_BUCKET: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .trim()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
        .optional(),
    ),
    STORAGE_ACCESS_KEY_ID: z.preprocess(emptyAsUnset, z.string().trim().min(1).max(256).optional()),
    STORAGE_SECRET_ACCESS_KEY: z.preprocess(emptyAsUnset, z.string().trim().min(1).max(256).optional()),
    STORAGE_REGION: z.preprocess(emptyAsUnset, z.string().trim().regex(/^[a-z0-9-]{2,40}$/, 'must be a region name such as us-east-1 (R2: auto)').default('us-east-1')),
    /** Bucket in the path (http://host/bucket/key) rather than the host name; unset: true except on AWS's own endpoints. */
    STORAGE_FORCE_PATH_STYLE: z.preprocess(emptyAsUnset, booleanFlag.optional()),
    /** Login requests allowed per address per minute (failed attempts are throttled separately). */
    LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(20),
    /** Chat messages allowed per address per minute. */
    CHAT_MESSAGE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(20),
    /** Submissions of a public form (estimate, booking) allowed per address per 15 minutes. */
    PUBLIC_FORM_LIMIT: z.coerce.number().int().min(1).max(10_000).default(5),
    /** Reads of the open online-booking windows allowed per address per minute (issue 21). */
    BOOKING_WINDOWS_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
    /** How many days before its season opens a maintenance plan's visit is generated (issue 22). */
    AGREEMENT_VISIT_LEAD_DAYS: z.coerce.number().int().min(0).max(366).default(generationLeadDays),
    /** The address geocoder (issue 9): offline ZIP centroids unless told otherwise. */
    GEOCODER: z.enum(geocoderNames, { error: `must be one of ${geocoderNames.join(', ')}` }).default('zip'),
    GOOGLE_MAPS_API_KEY: z.string().trim().optional().or(z.literal('').transform(() => undefined)),
    GEOCODER_GOOGLE_URL: z.url().default('https://maps.googleapis.com/maps/api/geocode/json'),
    GEOCODER_CENSUS_URL: z.url().default('https://geocoding.geo.census.gov/geocoder/locations/onelineaddress?benchmark=Public_AR_Current&format=json'),
    GEOCODER_NOMINATIM_URL: z.url().default('https://nominatim.openstreetmap.org'),
    NOMINATIM_USER_AGENT: z.string().trim().min(3).optional().or(z.literal('').transform(() => undefined)),
    GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  })
  .and(mapEnvSchema)
  .and(companyEnvSchema)
  .refine((env) => Boolean(env.CHAT_API_URL) === Boolean(env.CHAT_API_KEY), {
    message: 'CHAT_API_URL and CHAT_API_KEY go together: set both or neither',
    path: ['CHAT_API_KEY'],
  })
  .refine((env) => smsVariables.every((name) => Boolean(env[name])) || smsVariables.every((name) => !env[name]), {
    message: `${smsVariables.join(', ')} go together: set all four (texts through that API) or none (texts written to DATA_DIR/outbox/sms)`,
    path: ['SMS_API_URL'],
  })
  .refine((env) => stripeVariables.every((name) => Boolean(env[name])) || stripeVariables.every((name) => !env[name]), {
    message: `${stripeVariables.join(' and ')} go together: set both (customers pay invoices online through Stripe) or neither (no online payment)`,
    path: ['STRIPE_SECRET_KEY'],
  })
  .refine((env) => storageVariables.every((name) => Boolean(env[name])) || storageVariables.every((name) => !env[name]), {
    message: `${storageVariables.join(', ')} go together: set all four (photos in that bucket) or none (photos under DATA_DIR/uploads)`,
    path: ['STORAGE_URL'],
  })
  .refine((env) => env.GEOCODER !== 'google' || Boolean(env.GOOGLE_MAPS_API_KEY), {
    message: geocodingMessages.apiKeyMissing,
    path: ['GOOGLE_MAPS_API_KEY'],
  })
  .refine((env) => Boolean(env.ADMIN_EMAIL) === Boolean(env.ADMIN_PASSWORD), {
    message: 'ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither',
    path: ['ADMIN_PASSWORD'],
  })
  // The password policy's dictionary-free rules (shared/auth.ts); the start applies the whole policy
  // when it creates the account.
  .superRefine((env, context) => {
    if (!env.ADMIN_PASSWORD) return;
    const problem = passwordRuleProblem(env.ADMIN_PASSWORD, { email: env.ADMIN_EMAIL, companyName: env.COMPANY_NAME });
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['ADMIN_PASSWORD'] });
  });

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: statement_timeout of the pool's connections (0: none); the pool's query_timeout follows it. */
  databaseStatementTimeoutMs: number;
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  businessTimeZone: string;
  session: { idleMinutes: number; absoluteHours: number };
  trustProxy: TrustProxySetting;
  /** INSTANCE_NAME: sent as X-Served-By on every answer, so an operator sees which instance answered. */
  instanceName: string | undefined;
  logLevel: string;
  clientDir: string;
  geocodingBatch: { pauseMs: number; rateLimitBackoffMs: number };
  email: { smtpUrl: string | undefined; from: string; retentionDays: number };
  publicFormLimitPer15Minutes: number;
  bookingWindowsLimitPerMinute: number;
  agreementVisitLeadDays: number;
  loginLimitPerMinute: number;
  chat: {
    webhookUrl: string | undefined;
    model: { url: string; key: string; name: string } | undefined;
    timeoutMs: number;
    messageLimitPerMinute: number;
  };
  /**
   * Text messages (issue 18). `api` unset: texts are written to DATA_DIR/outbox/sms. The auth token
   * stays on the server: only the SMS sender and the inbound webhook's signature check read it
   * (never sent to the browser, never logged: `authToken` is a redacted key, server/logging.ts).
   */
  sms: {
    api: { url: string; accountSid: string; authToken: string; from: string } | undefined;
    timeoutMs: number;
  };
  /**
   * Online card payment (issue 20, decision 024-e). `stripe` unset: no online payment. The secret
   * key and the webhook secret stay on the server: only the payment adapter reads them (never sent
   * to the browser, never logged: `secretKey` and `webhookSecret` are redacted keys, server/logging.ts).
   */
  payments: {
    stripe: { apiUrl: string; secretKey: string; webhookSecret: string } | undefined;
    timeoutMs: number;
  };
  /**
   * Where photos and signatures are kept (issue 23, decision 028-b). `s3` unset: files under
   * DATA_DIR/uploads. The secret access key stays on the server: only the S3 adapter reads it
   * (never sent to the browser, never logged: `secretAccessKey` is a redacted key, server/logging.ts;
   * never written to a backup).
   */
  storage: {
    s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean } | undefined;
  };
  company: CompanyProfile;
  map: { tileUrl: string; tileAttribution: string };
  /**
   * The address geocoder and every provider's settings. The Google key stays on the server: only
   * the Google provider reads it (it is never sent to the browser, never logged).
   */
  geocoding: {
    provider: GeocoderName;
    timeoutMs: number;
    google: { url: string; apiKey: string | undefined };
    census: { url: string };
    nominatim: { url: string; userAgent: string };
  };
};

/** AWS's own S3 endpoints take the bucket in the host name (virtual-hosted style); other stores usually want it in the path. */
function isAwsEndpoint(url: string): boolean {
  return /(^|\.)amazonaws\.com(\.cn)?$/.test(new URL(url).hostname);
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL.toLowerCase(), password: env.ADMIN_PASSWORD } : undefined,
    seedDemo: env.SEED_DEMO,
    businessTimeZone: env.TZ_BUSINESS,
    session: { idleMinutes: env.SESSION_IDLE_MINUTES, absoluteHours: env.SESSION_ABSOLUTE_HOURS },
    trustProxy: env.TRUST_PROXY,
    instanceName: env.INSTANCE_NAME,
    logLevel: env.LOG_LEVEL,
    clientDir: path.resolve(env.CLIENT_DIR),
    geocodingBatch: { pauseMs: env.GEOCODER_PAUSE_MS, rateLimitBackoffMs: env.GEOCODER_BACKOFF_MS },
    email: {
      smtpUrl: env.SMTP_URL,
      from: env.EMAIL_FROM ?? `"${env.COMPANY_NAME.replace(/"/g, '')}" <${env.COMPANY_EMAIL}>`,
      retentionDays: env.EMAIL_RETENTION_DAYS,
    },
    publicFormLimitPer15Minutes: env.PUBLIC_FORM_LIMIT,
    bookingWindowsLimitPerMinute: env.BOOKING_WINDOWS_LIMIT,
    agreementVisitLeadDays: env.AGREEMENT_VISIT_LEAD_DAYS,
    loginLimitPerMinute: env.LOGIN_RATE_LIMIT,
    chat: {
      webhookUrl: env.CHAT_WEBHOOK_URL,
      model: env.CHAT_API_URL && env.CHAT_API_KEY ? { url: env.CHAT_API_URL.replace(/\/$/, ''), key: env.CHAT_API_KEY, name: env.CHAT_MODEL } : undefined,
      timeoutMs: env.CHAT_TIMEOUT_MS,
      messageLimitPerMinute: env.CHAT_MESSAGE_LIMIT,
    },
    sms: {
      api:
        env.SMS_API_URL && env.SMS_ACCOUNT_SID && env.SMS_AUTH_TOKEN && env.SMS_FROM
          ? { url: env.SMS_API_URL.replace(/\/+$/, ''), accountSid: env.SMS_ACCOUNT_SID, authToken: env.SMS_AUTH_TOKEN, from: env.SMS_FROM }
          : undefined,
      timeoutMs: env.SMS_TIMEOUT_MS,
    },
    payments: {
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
          ? { apiUrl: env.STRIPE_API_URL.replace(/\/+$/, ''), secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET }
          : undefined,
      timeoutMs: env.STRIPE_TIMEOUT_MS,
    },
    storage: {
      s3:
        env.STORAGE_URL && env.STORAGE_BUCKET && env.STORAGE_ACCESS_KEY_ID && env.STORAGE_SECRET_ACCESS_KEY
          ? {
              endpoint: env.STORAGE_URL.replace(/\/+$/, ''),
              bucket: env.STORAGE_BUCKET,
              region: env.STORAGE_REGION,
              accessKeyId: env.STORAGE_ACCESS_KEY_ID,
              secretAccessKey: env.STORAGE_SECRET_ACCESS_KEY,
              forcePathStyle: env.STORAGE_FORCE_PATH_STYLE ?? !isAwsEndpoint(env.STORAGE_URL),
            }
          : undefined,
    },
    company: companyProfileFrom(env),
    map: { tileUrl: env.MAP_TILE_URL, tileAttribution: env.MAP_TILE_ATTRIBUTION },
    geocoding: {
      provider: env.GEOCODER,
      timeoutMs: env.GEOCODER_TIMEOUT_MS,
      google: { url: env.GEOCODER_GOOGLE_URL, apiKey: env.GOOGLE_MAPS_API_KEY },
      census: { url: env.GEOCODER_CENSUS_URL },
      nominatim: {
        url: env.GEOCODER_NOMINATIM_URL.replace(/\/+$/, ''),
        userAgent: env.NOMINATIM_USER_AGENT ?? `${env.COMPANY_NAME} back office (${env.COMPANY_EMAIL})`,
      },
    },
  };
}
