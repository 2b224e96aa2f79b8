import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, fastifyTrustProxy, loadConfig } from '#server/config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('has working defaults: port 3000, ./data, embedded database, demo data, New York time, a company profile', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.businessTimeZone).toBe('America/New_York');
    expect(config.admin).toBeUndefined();
    expect(config.company.address.city).toBe('Bluffton');
    expect(config.company.notificationRecipients).toHaveLength(2);
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/hvac-data',
      DATABASE_URL: 'postgres://user@db.internal:5432/hvac',
      ADMIN_EMAIL: 'Owner@Example.com',
      ADMIN_PASSWORD: 'a long enough password',
      SEED_DEMO: 'false',
      TZ_BUSINESS: 'America/Chicago',
      COMPANY_NAME: 'Palmetto Air',
      COMPANY_PHONE: '(843) 555-0100',
      NOTIFICATION_RECIPIENTS: 'a@example.com, b@example.com,c@example.com',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/tmp/hvac-data',
      databaseUrl: 'postgres://user@db.internal:5432/hvac',
      admin: { email: 'owner@example.com', password: 'a long enough password' },
      seedDemo: false,
      businessTimeZone: 'America/Chicago',
    });
    expect(config.company.name).toBe('Palmetto Air');
    expect(config.company.phone).toBe('(843) 555-0100');
    expect(config.company.notificationRecipients).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });

  it('stops with a message naming each invalid variable', () => {
    expect(problemsOf({ PORT: 'eighty' })[0]).toMatch(/^PORT:/);
    expect(problemsOf({ DATABASE_URL: 'mysql://x' })[0]).toMatch(/^DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(problemsOf({ TZ_BUSINESS: 'Mars/Olympus' })[0]).toMatch(/^TZ_BUSINESS:/);
    expect(problemsOf({ SEED_DEMO: 'maybe' })[0]).toMatch(/^SEED_DEMO: must be true or false/);
    expect(problemsOf({ COMPANY_EMAIL: 'not-an-email' })[0]).toMatch(/^COMPANY_EMAIL:/);
    expect(problemsOf({ ADMIN_EMAIL: 'owner@example.com' })[0]).toMatch(/^ADMIN_PASSWORD: ADMIN_EMAIL and ADMIN_PASSWORD go together/);
    expect(problemsOf({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'short' })[0]).toMatch(/^ADMIN_PASSWORD: must be at least 12/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/Invalid configuration:\n {2}- PORT:/);
  });
});

describe('geocoding configuration', () => {
  it('uses the offline ZIP geocoder and the public services’ addresses by default', () => {
    expect(loadConfig({}).geocoding).toEqual({
      provider: 'zip',
      timeoutMs: 10_000,
      google: { url: 'https://maps.googleapis.com/maps/api/geocode/json', apiKey: undefined },
      census: { url: 'https://geocoding.geo.census.gov/geocoder/locations/onelineaddress?benchmark=Public_AR_Current&format=json' },
      nominatim: { url: 'https://nominatim.openstreetmap.org', userAgent: 'Lowcountry Comfort Heating & Air back office (service@lowcountrycomfort.example)' },
    });
  });

  it('reads every geocoding variable', () => {
    const config = loadConfig({
      GEOCODER: 'nominatim',
      GOOGLE_MAPS_API_KEY: 'AIza-test',
      GEOCODER_GOOGLE_URL: 'http://127.0.0.1:9/geocode/json',
      GEOCODER_CENSUS_URL: 'http://127.0.0.1:9/census',
      GEOCODER_NOMINATIM_URL: 'http://127.0.0.1:9/nominatim/',
      NOMINATIM_USER_AGENT: 'Palmetto Air dispatch',
      GEOCODER_TIMEOUT_MS: '2500',
    });
    expect(config.geocoding).toEqual({
      provider: 'nominatim',
      timeoutMs: 2500,
      google: { url: 'http://127.0.0.1:9/geocode/json', apiKey: 'AIza-test' },
      census: { url: 'http://127.0.0.1:9/census' },
      nominatim: { url: 'http://127.0.0.1:9/nominatim', userAgent: 'Palmetto Air dispatch' },
    });
  });

  it('refuses GEOCODER=google without a key (the spec’s message) and an unknown provider', () => {
    expect(problemsOf({ GEOCODER: 'google' })).toEqual(['GOOGLE_MAPS_API_KEY: Google Maps API key not found. Please add the key to your .env file']);
    expect(problemsOf({ GEOCODER: 'google', GOOGLE_MAPS_API_KEY: '' })).toHaveLength(1);
    expect(problemsOf({ GEOCODER: 'google', GOOGLE_MAPS_API_KEY: 'AIza-test' })).toEqual([]);
    expect(problemsOf({ GEOCODER: 'bing' })[0]).toBe('GEOCODER: must be one of zip, google, census, nominatim');
    expect(problemsOf({ GEOCODER_TIMEOUT_MS: '10' })[0]).toMatch(/^GEOCODER_TIMEOUT_MS:/);
  });
});

describe('TRUST_PROXY (decision 018-b-client-addresses)', () => {
  it('refuses true at start, naming the variable and saying what to use instead', () => {
    for (const value of ['true', 'TRUE', 'yes']) {
      const [problem] = problemsOf({ TRUST_PROXY: value });
      expect(problem, value).toMatch(/^TRUST_PROXY: true would trust every X-Forwarded-For hop/);
      expect(problem).toContain('TRUST_PROXY=1');
      expect(problem).toContain('TRUST_PROXY=127.0.0.1,10.0.0.0/8');
    }
  });

  it('reads false (the default), a hop count, or a list of proxy addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8, loopback' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', 'loopback']);
  });

  it('refuses what is neither an address nor a range', () => {
    for (const value of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1,', '::1/129', '10.0.0.0/8/1', '11']) {
      expect(problemsOf({ TRUST_PROXY: value })[0], value).toMatch(/^TRUST_PROXY: /);
    }
  });

  it('turns a hop count into a function (a bare number would trust no peer in Fastify 5)', () => {
    const trust = fastifyTrustProxy(1);
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    expect([trust('10.0.0.1', 0), trust('1.2.3.4', 1)]).toEqual([true, false]);
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });
});

describe('company opening hours', () => {
  it('reads schema.org notation and shows it the way people write hours', async () => {
    const { openingHoursLabel, openingHoursSpecification } = await import('#shared/company-profile.ts');
    const config = loadConfig({ COMPANY_OPENING_HOURS: 'Mo-Fr 07:30-17:00; Sa 09:00-12:00; Su 12:00-12:00' });
    expect(config.company.openingHours.map(openingHoursLabel)).toEqual(['Mon-Fri 7:30AM-5PM', 'Sat 9AM-12PM', 'Sun 12PM-12PM']);
    expect(openingHoursSpecification(config.company.openingHours[0]!)).toEqual({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
      opens: '07:30',
      closes: '17:00',
    });
    expect(loadConfig({}).company.openingHours.map(openingHoursLabel)).toEqual(['Mon-Fri 8AM-6PM', 'Sat 9AM-4PM']);
    expect(problemsOf({ COMPANY_OPENING_HOURS: 'weekdays 9 to 5' })[0]).toMatch(/^COMPANY_OPENING_HOURS: use the form/);
  });
});

describe('text messages (SMS_*)', () => {
  const sms = { SMS_API_URL: 'https://api.twilio.com/', SMS_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef', SMS_AUTH_TOKEN: 'the-auth-token', SMS_FROM: '+18435550100' };

  it('writes texts to files by default, with a 10 s timeout for the API', () => {
    expect(loadConfig({}).sms).toEqual({ api: undefined, timeoutMs: 10_000 });
    expect(loadConfig({ SMS_API_URL: '', SMS_ACCOUNT_SID: '', SMS_AUTH_TOKEN: '', SMS_FROM: '' }).sms.api).toBeUndefined();
  });

  it('reads the API when all four are set (the URL without its trailing slash)', () => {
    expect(loadConfig({ ...sms, SMS_TIMEOUT_MS: '2500' }).sms).toEqual({
      api: { url: 'https://api.twilio.com', accountSid: sms.SMS_ACCOUNT_SID, authToken: 'the-auth-token', from: '+18435550100' },
      timeoutMs: 2500,
    });
  });

  it('refuses some of the four without the others, naming them', () => {
    for (const missing of Object.keys(sms)) {
      const problems = problemsOf({ ...sms, [missing]: '' });
      expect(problems, missing).toEqual([expect.stringMatching(/^SMS_API_URL: SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM go together/)]);
    }
    expect(problemsOf({ SMS_AUTH_TOKEN: 'only-the-token' })).toHaveLength(1);
  });

  it('refuses a URL that is not http(s), a sender that is not E.164 and a timeout out of range', () => {
    expect(problemsOf({ ...sms, SMS_API_URL: 'ftp://api.example.com' })[0]).toMatch(/^SMS_API_URL: must be an http/);
    expect(problemsOf({ ...sms, SMS_API_URL: 'not a url' })[0]).toMatch(/^SMS_API_URL: must be an http/);
    expect(problemsOf({ ...sms, SMS_FROM: '(843) 555-0100' })[0]).toMatch(/^SMS_FROM: must be a phone number in E.164 form/);
    expect(problemsOf({ SMS_TIMEOUT_MS: '10' })[0]).toMatch(/^SMS_TIMEOUT_MS: /);
  });

  it('never puts the auth token in an error message', () => {
    const problems = problemsOf({ ...sms, SMS_AUTH_TOKEN: 'secret-token-value', SMS_FROM: 'nope' });
    expect(problems.join('\n')).not.toContain('secret-token-value');
  });
});

describe('online card payment (STRIPE_*)', () => {
  const stripe = { STRIPE_SECRET_KEY: 'sk_test_51AbCdEfGhIjKlMnOp', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdefABCDEF' };

  it('has no online payment by default, and a 10 s timeout for the API', () => {
    expect(loadConfig({}).payments).toEqual({ stripe: undefined, timeoutMs: 10_000 });
    expect(loadConfig({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' }).payments.stripe).toBeUndefined();
  });

  it("reads Stripe when both are set, on Stripe's API unless told otherwise (without a trailing slash)", () => {
    expect(loadConfig(stripe).payments).toEqual({
      stripe: { apiUrl: 'https://api.stripe.com', secretKey: stripe.STRIPE_SECRET_KEY, webhookSecret: stripe.STRIPE_WEBHOOK_SECRET },
      timeoutMs: 10_000,
    });
    const local = loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:4010/', STRIPE_TIMEOUT_MS: '2500', STRIPE_SECRET_KEY: 'rk_live_51Restricted0Key' }).payments;
    expect(local).toEqual({ stripe: { apiUrl: 'http://127.0.0.1:4010', secretKey: 'rk_live_51Restricted0Key', webhookSecret: stripe.STRIPE_WEBHOOK_SECRET }, timeoutMs: 2500 });
  });

  it('refuses one without the other, naming both', () => {
    for (const missing of Object.keys(stripe)) {
      expect(problemsOf({ ...stripe, [missing]: '' }), missing).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together/)]);
    }
  });

  it('refuses a publishable key, a secret that is not a signing secret, a bad URL and a timeout out of range, without echoing the values', () => {
    const publishable = problemsOf({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_51PublishableKeyValue' });
    expect(publishable[0]).toMatch(/^STRIPE_SECRET_KEY: must be a Stripe secret key .*not the publishable key/);
    expect(publishable.join('\n')).not.toContain('pk_live_51PublishableKeyValue');
    const signing = problemsOf({ ...stripe, STRIPE_WEBHOOK_SECRET: 'sk_live_51NotASigningSecret' });
    expect(signing[0]).toMatch(/^STRIPE_WEBHOOK_SECRET: must be the webhook endpoint's signing secret/);
    expect(signing.join('\n')).not.toContain('sk_live_51NotASigningSecret');
    expect(problemsOf({ ...stripe, STRIPE_API_URL: 'ftp://api.stripe.com' })[0]).toMatch(/^STRIPE_API_URL: must be an http/);
    expect(problemsOf({ STRIPE_TIMEOUT_MS: '10' })[0]).toMatch(/^STRIPE_TIMEOUT_MS: /);
  });
});

describe('photo storage settings (issue 23, decision 028-b)', () => {
  const s3 = { STORAGE_URL: 'http://127.0.0.1:9000', STORAGE_BUCKET: 'hvac-photos', STORAGE_ACCESS_KEY_ID: 'minio', STORAGE_SECRET_ACCESS_KEY: 'minio-secret-123' };

  it('keeps photos under DATA_DIR/uploads when STORAGE_URL is unset (or empty)', () => {
    expect(loadConfig({}).storage.s3).toBeUndefined();
    expect(loadConfig({ STORAGE_URL: '', STORAGE_BUCKET: '', STORAGE_ACCESS_KEY_ID: '', STORAGE_SECRET_ACCESS_KEY: '' }).storage.s3).toBeUndefined();
  });

  it('reads the bucket settings, with us-east-1 and path-style addressing for a custom endpoint by default', () => {
    expect(loadConfig(s3).storage.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'hvac-photos',
      region: 'us-east-1',
      accessKeyId: 'minio',
      secretAccessKey: 'minio-secret-123',
      forcePathStyle: true,
    });
    const aws = loadConfig({ ...s3, STORAGE_URL: 'https://s3.eu-west-1.amazonaws.com/', STORAGE_REGION: 'eu-west-1' }).storage.s3;
    expect(aws).toMatchObject({ endpoint: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1', forcePathStyle: false });
    expect(loadConfig({ ...s3, STORAGE_FORCE_PATH_STYLE: 'false' }).storage.s3?.forcePathStyle).toBe(false);
    expect(loadConfig({ ...s3, STORAGE_URL: 'https://s3.us-east-1.amazonaws.com', STORAGE_FORCE_PATH_STYLE: 'true' }).storage.s3?.forcePathStyle).toBe(true);
    expect(loadConfig({ ...s3, STORAGE_REGION: 'auto' }).storage.s3?.region).toBe('auto');
  });

  it('stops the start when the four variables are not set together', () => {
    const together = 'STORAGE_URL: STORAGE_URL, STORAGE_BUCKET, STORAGE_ACCESS_KEY_ID, STORAGE_SECRET_ACCESS_KEY go together: set all four (photos in that bucket) or none (photos under DATA_DIR/uploads)';
    expect(problemsOf({ STORAGE_URL: s3.STORAGE_URL })).toEqual([together]);
    expect(problemsOf({ ...s3, STORAGE_BUCKET: '' })).toEqual([together]);
    expect(problemsOf({ ...s3, STORAGE_SECRET_ACCESS_KEY: '' })).toEqual([together]);
    expect(problemsOf({ STORAGE_BUCKET: 'hvac-photos' })).toEqual([together]);
  });

  it('explains a wrong endpoint, bucket name, region or flag', () => {
    expect(problemsOf({ ...s3, STORAGE_URL: 'ftp://files.example.com' })[0]).toMatch(/^STORAGE_URL: must be the endpoint as an http:\/\/ or https:\/\/ URL/);
    expect(problemsOf({ ...s3, STORAGE_URL: 'https://s3.example.com/hvac-photos' })).toEqual([
      'STORAGE_URL: must be the endpoint alone (scheme, host, port), without a path: the bucket goes in STORAGE_BUCKET',
    ]);
    expect(problemsOf({ ...s3, STORAGE_BUCKET: 'HVAC_Photos' })).toEqual(['STORAGE_BUCKET: must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens']);
    expect(problemsOf({ ...s3, STORAGE_REGION: 'US East' })).toEqual(['STORAGE_REGION: must be a region name such as us-east-1 (R2: auto)']);
    expect(problemsOf({ ...s3, STORAGE_FORCE_PATH_STYLE: 'maybe' })).toEqual(['STORAGE_FORCE_PATH_STYLE: must be true or false']);
  });

  it('never puts the secret key in a configuration error', () => {
    const problems = problemsOf({ ...s3, STORAGE_BUCKET: 'x' }).join('\n');
    expect(problems).toContain('STORAGE_BUCKET');
    expect(problems).not.toContain('minio-secret-123');
  });
});
