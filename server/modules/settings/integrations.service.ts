import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { chooseBestResult } from '#shared/geocoding.ts';
import {
  integrationTestQuestion,
  type IntegrationName,
  type IntegrationStatus,
  type IntegrationTestResult,
  type IntegrationsResponse,
} from '#shared/integrations.ts';
import type { ChatResponder } from '#server/adapters/chat/chat-responder.ts';
import type { EmailSender } from '#server/adapters/email/email-sender.ts';
import { createGeocoder } from '#server/adapters/geocoding/index.ts';
import { createPaymentGateway, PaymentGatewayError, stripeApiVersion, stripeWebhookEvents } from '#server/adapters/payments/index.ts';
import type { AppConfig } from '#server/config.ts';
import { stripeWebhookPath } from '#server/modules/invoices/index.ts';

/** How long the map tile test waits for the tile server. */
export const tileTestTimeoutMs = 5_000;

/** Host and port of a URL, nothing else: no user, password, path or query (they may hold secrets). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an address that is not a valid URL';
  }
}

/** The slippy-map tile (x, y) holding a position at zoom z (OpenStreetMap's formula). */
export function tileAt(latitude: number, longitude: number, zoom: number): { x: number; y: number; z: number } {
  const scale = 2 ** zoom;
  const x = Math.floor(((longitude + 180) / 360) * scale);
  const radians = (latitude * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * scale);
  return { x: Math.min(Math.max(x, 0), scale - 1), y: Math.min(Math.max(y, 0), scale - 1), z: zoom };
}

/** A Leaflet URL template filled in for one tile ({s}: the first subdomain, {r}: no retina, {-y}: TMS rows). */
export function tileUrlFor(template: string, tile: { x: number; y: number; z: number }): string {
  return template
    .replaceAll('{s}', 'a')
    .replaceAll('{r}', '')
    .replaceAll('{-y}', String(2 ** tile.z - 1 - tile.y))
    .replaceAll('{z}', String(tile.z))
    .replaceAll('{x}', String(tile.x))
    .replaceAll('{y}', String(tile.y));
}

/** A Stripe key's mode from its prefix (sk_live_, rk_test_, ...): not a secret, Stripe's dashboard shows it beside every key. */
export function stripeKeyMode(secretKey: string): 'live' | 'test' {
  return /^[a-z]{2}_live_/.test(secretKey) ? 'live' : 'test';
}

/** An error's own words, with its cause's (fetch's 'fetch failed' says nothing without it). */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `No answer within the time limit (${error.message})`;
  const cause = (error as { cause?: unknown }).cause;
  const causeText =
    cause instanceof Error ? `${(cause as { code?: string }).code ? `${(cause as { code?: string }).code}: ` : ''}${cause.message}` : cause ? String(cause) : '';
  return causeText && !error.message.includes(causeText) ? `${error.message} (${causeText})` : error.message;
}

export type IntegrationsOptions = {
  config: AppConfig;
  emailSender: EmailSender;
  chatResponder: ChatResponder;
  /** The map tile URL template (MAP_TILE_URL), when the map's tile configuration is present. */
  mapTileUrl: string | undefined;
};

/**
 * What the settings screen shows of the outside services and the tests behind its buttons. Each
 * test goes through the same adapter the product uses, synchronously, and reports what really
 * happened; secrets (SMTP password, API keys, Stripe's keys) are removed from any text before it is returned.
 */
export function createIntegrationsService(options: IntegrationsOptions) {
  const { config, emailSender, chatResponder, mapTileUrl } = options;
  const secrets = [
    config.email.smtpUrl ? safeDecode(new URL(config.email.smtpUrl).password) : '',
    config.email.smtpUrl ? config.email.smtpUrl : '',
    config.chat.model?.key ?? '',
    config.geocoding.google.apiKey ?? '',
    config.payments.stripe?.secretKey ?? '',
    config.payments.stripe?.webhookSecret ?? '',
  ].filter((secret) => secret.length >= 3);
  const scrub = (text: string) => secrets.reduce((result, secret) => result.split(secret).join('***'), text);

  function emailStatus(): IntegrationStatus {
    const from = { label: 'Sender', value: config.email.from };
    if (config.email.smtpUrl) {
      const url = new URL(config.email.smtpUrl);
      const secure = url.protocol === 'smtps:';
      return {
        name: 'email',
        adapter: 'smtp',
        summary: `Sent through the SMTP server ${url.hostname}`,
        details: [
          { label: 'Server', value: url.host },
          { label: 'Connection', value: secure ? 'TLS from the start (smtps)' : 'SMTP (STARTTLS when the server offers it)' },
          { label: 'Signs in', value: url.username ? 'yes (user name and password from SMTP_URL)' : 'no' },
          from,
        ],
        variables: ['SMTP_URL', 'EMAIL_FROM'],
        testable: true,
      };
    }
    return {
      name: 'email',
      adapter: 'outbox',
      summary: 'No SMTP server: messages are written as .eml files to the outbox folder',
      details: [{ label: 'Folder', value: path.join(config.dataDir, 'outbox') }, from],
      variables: ['SMTP_URL', 'EMAIL_FROM', 'DATA_DIR'],
      testable: true,
    };
  }

  function chatStatus(): IntegrationStatus {
    const variables = ['CHAT_WEBHOOK_URL', 'CHAT_API_URL', 'CHAT_API_KEY', 'CHAT_MODEL', 'CHAT_TIMEOUT_MS'];
    const timeout = { label: 'Time limit', value: `${config.chat.timeoutMs / 1000} s` };
    if (chatResponder.kind === 'webhook' && config.chat.webhookUrl) {
      return {
        name: 'chat',
        adapter: 'webhook',
        summary: `Replies come from an automation webhook at ${hostOf(config.chat.webhookUrl)}`,
        details: [{ label: 'Webhook host', value: hostOf(config.chat.webhookUrl) }, timeout],
        variables,
        testable: true,
      };
    }
    if (chatResponder.kind === 'model' && config.chat.model) {
      return {
        name: 'chat',
        adapter: 'model',
        summary: `Replies are written by the model ${config.chat.model.name} at ${hostOf(config.chat.model.url)}`,
        details: [
          { label: 'API host', value: hostOf(config.chat.model.url) },
          { label: 'Model', value: config.chat.model.name },
          { label: 'API key', value: 'set (never shown)' },
          timeout,
        ],
        variables,
        testable: true,
      };
    }
    return {
      name: 'chat',
      adapter: 'rule-based',
      summary: 'The built-in rule-based assistant answers (no model or webhook configured)',
      details: [],
      variables,
      testable: true,
    };
  }

  function geocodingStatus(): IntegrationStatus {
    const settings = config.geocoding;
    const variables = ['GEOCODER', 'GOOGLE_MAPS_API_KEY', 'GEOCODER_GOOGLE_URL', 'GEOCODER_CENSUS_URL', 'GEOCODER_NOMINATIM_URL', 'NOMINATIM_USER_AGENT', 'GEOCODER_TIMEOUT_MS'];
    const timeout = { label: 'Time limit', value: `${settings.timeoutMs / 1000} s` };
    switch (settings.provider) {
      case 'google':
        return {
          name: 'geocoding',
          adapter: 'google',
          summary: `Google Geocoding API at ${hostOf(settings.google.url)}`,
          details: [{ label: 'Service host', value: hostOf(settings.google.url) }, { label: 'API key', value: settings.google.apiKey ? 'set (never shown)' : 'missing' }, timeout],
          variables,
          testable: true,
        };
      case 'census':
        return {
          name: 'geocoding',
          adapter: 'census',
          summary: `US Census Bureau geocoder at ${hostOf(settings.census.url)}`,
          details: [{ label: 'Service host', value: hostOf(settings.census.url) }, timeout],
          variables,
          testable: true,
        };
      case 'nominatim':
        return {
          name: 'geocoding',
          adapter: 'nominatim',
          summary: `Nominatim (OpenStreetMap) at ${hostOf(settings.nominatim.url)}`,
          details: [{ label: 'Service host', value: hostOf(settings.nominatim.url) }, { label: 'User agent', value: settings.nominatim.userAgent }, timeout],
          variables,
          testable: true,
        };
      case 'zip':
        return {
          name: 'geocoding',
          adapter: 'zip',
          summary: 'Offline ZIP code centroids (approximate positions, no outside service)',
          details: [],
          variables,
          testable: true,
        };
    }
  }

  function mapsStatus(): IntegrationStatus {
    if (!mapTileUrl) {
      return {
        name: 'maps',
        adapter: 'not-configured',
        summary: 'The map tile source is not configured in this build',
        details: [],
        variables: ['MAP_TILE_URL', 'MAP_TILE_ATTRIBUTION'],
        testable: false,
      };
    }
    const isLocal = mapTileUrl.startsWith('/');
    return {
      name: 'maps',
      adapter: isLocal ? 'local' : 'tile-server',
      summary: isLocal ? 'Tiles are served by this server' : `Tiles come from ${hostOf(mapTileUrl.replaceAll('{s}', 'a'))}`,
      details: [{ label: 'Tile address', value: isLocal ? mapTileUrl : `${new URL(mapTileUrl.replaceAll('{s}', 'a')).origin}/…` }],
      variables: ['MAP_TILE_URL', 'MAP_TILE_ATTRIBUTION'],
      testable: true,
    };
  }

  function paymentsStatus(): IntegrationStatus {
    const stripe = config.payments.stripe;
    const variables = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL', 'STRIPE_TIMEOUT_MS', 'COMPANY_SITE_URL'];
    if (!stripe) {
      return {
        name: 'payments',
        adapter: 'none',
        summary: 'No online payment: the invoice page tells customers how to pay instead (by phone, by check or through the technician); plan sign-ups are paid once the office confirms them',
        details: [],
        variables,
        testable: false,
      };
    }
    const mode = stripeKeyMode(stripe.secretKey);
    return {
      name: 'payments',
      adapter: 'stripe',
      summary: `Customers pay invoices and plan sign-ups by card on Stripe Checkout (${mode} mode)`,
      details: [
        { label: 'API host', value: hostOf(stripe.apiUrl) },
        { label: 'Secret key', value: `set (never shown), ${mode} mode` },
        // What to register in Stripe's dashboard (Developers → Webhooks): the endpoint, its events, its version (decision 024-e).
        { label: 'Webhook URL', value: `${config.company.siteUrl}${stripeWebhookPath}` },
        { label: 'Webhook events', value: stripeWebhookEvents.join(', ') },
        { label: 'API version', value: `${stripeApiVersion} (create the webhook endpoint at this version)` },
        { label: 'Webhook signing secret', value: 'set (never shown)' },
        { label: 'Time limit', value: `${config.payments.timeoutMs / 1000} s` },
      ],
      variables,
      testable: true,
    };
  }

  async function testEmail(recipient: string): Promise<{ ok: boolean; message: string }> {
    await emailSender.send({
      from: config.email.from,
      to: [recipient],
      subject: `Test e-mail from ${config.company.name}`,
      text: `This is a test e-mail sent from the settings screen of the ${config.company.name} back office at ${new Date().toISOString()}.\n\nIf you can read this, outgoing e-mail works.`,
    });
    return emailSender.kind === 'smtp'
      ? { ok: true, message: `The SMTP server ${new URL(config.email.smtpUrl!).host} accepted a test e-mail to ${recipient}.` }
      : { ok: true, message: `No SMTP server is configured: the test e-mail to ${recipient} was written to ${path.join(config.dataDir, 'outbox')}.` };
  }

  async function testChat(): Promise<{ ok: boolean; message: string }> {
    const reply = await chatResponder.probe({
      message: integrationTestQuestion,
      sessionId: `settings-test-${randomUUID()}`,
      customerName: undefined,
      phone: undefined,
      history: [],
    });
    return { ok: true, message: `Asked “${integrationTestQuestion}”; the ${chatStatus().adapter} responder answered: ${reply}` };
  }

  async function testGeocoding(): Promise<{ ok: boolean; message: string }> {
    const { street, city, state, zip } = config.company.address;
    const address = { address: street, city, state, zip };
    const outcome = await createGeocoder(config).geocode(address, AbortSignal.timeout(config.geocoding.timeoutMs + 1_000));
    const asked = `${street}, ${city}, ${state} ${zip}`;
    switch (outcome.kind) {
      case 'results': {
        const choice = chooseBestResult(outcome.candidates, address);
        if (!choice.ok) return { ok: false, message: `${config.geocoding.provider} answered for ${asked}, but no result passed the checks: ${choice.message}` };
        const { latitude, longitude, accuracy, formattedAddress } = choice.candidate;
        return {
          ok: true,
          message: `${asked} → ${latitude.toFixed(5)}, ${longitude.toFixed(5)} (${accuracy}; ${formattedAddress}) from ${config.geocoding.provider}.`,
        };
      }
      case 'none':
        return { ok: false, message: `${config.geocoding.provider} found nothing for ${asked} (${outcome.status}).` };
      case 'rate-limited':
        return { ok: false, message: `${config.geocoding.provider} asked to slow down (${outcome.status}${outcome.message ? `: ${outcome.message}` : ''}).` };
      case 'error':
        return { ok: false, message: `${config.geocoding.provider} failed: ${outcome.status}${outcome.message ? `: ${outcome.message}` : ''}` };
    }
  }

  async function testMaps(): Promise<{ ok: boolean; message: string }> {
    if (!mapTileUrl) return { ok: false, message: 'No map tile source is configured in this build (MAP_TILE_URL).' };
    const tile = tileAt(config.company.geo.latitude, config.company.geo.longitude, 12);
    // A path template ('/tiles/…') is completed with the configured site URL (COMPANY_SITE_URL),
    // never with the request's Host header: a forged Host would make the server fetch any address.
    const url = new URL(tileUrlFor(mapTileUrl, tile), config.company.siteUrl);
    const where = `tile ${tile.z}/${tile.x}/${tile.y} from ${url.host}`;
    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.timeout(tileTestTimeoutMs),
        headers: { 'user-agent': `${config.company.name} back office settings test`, accept: 'image/*' },
      });
    } catch (error) {
      return { ok: false, message: `The ${where} could not be fetched: ${errorText(error)}` };
    }
    const type = response.headers.get('content-type') ?? 'no content type';
    await response.body?.cancel();
    if (!response.ok) return { ok: false, message: `The ${where} answered HTTP ${response.status} ${response.statusText}`.trim() + '.' };
    if (!type.startsWith('image/')) return { ok: false, message: `The ${where} answered HTTP ${response.status}, but with ${type}, not an image.` };
    return { ok: true, message: `The ${where} answered HTTP ${response.status} with ${type}.` };
  }

  /**
   * An authenticated call to Stripe that changes nothing: reading a Checkout Session that cannot
   * exist. Stripe answers 404 resource_missing to a key it accepts, 401 to one it does not.
   */
  async function testPayments(): Promise<{ ok: boolean; message: string }> {
    const stripe = config.payments.stripe;
    const gateway = createPaymentGateway(config.payments);
    if (!stripe || !gateway) return { ok: false, message: 'Online payment is not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET): there is nothing to test.' };
    const mode = stripeKeyMode(stripe.secretKey);
    const where = `Stripe at ${hostOf(stripe.apiUrl)}`;
    const accepted = `${where}: the key was accepted (${mode} mode).`;
    try {
      await gateway.retrieveCheckout(`cs_${mode}_settingsTest${randomUUID().replaceAll('-', '')}`);
      return { ok: true, message: accepted };
    } catch (error) {
      if (error instanceof PaymentGatewayError && error.details.kind === 'not_found') {
        if (error.details.stripeCode === 'resource_missing') {
          return { ok: true, message: `${accepted} Asked for a Checkout Session that does not exist, Stripe answered 404 resource_missing: nothing was created or changed.` };
        }
        // A 404 without Stripe's error: something else answers at STRIPE_API_URL.
        return { ok: false, message: `The server at ${hostOf(stripe.apiUrl)} answered HTTP 404 without Stripe's resource_missing error: is STRIPE_API_URL Stripe's API? (${errorText(error)})` };
      }
      return { ok: false, message: `${where}: ${errorText(error)}` };
    }
  }

  return {
    status(): IntegrationsResponse {
      return { integrations: [emailStatus(), chatStatus(), geocodingStatus(), mapsStatus(), paymentsStatus()] };
    },

    /** Runs one test; a failure is an answer (ok: false with the real error text), not an HTTP error. */
    async test(name: IntegrationName, context: { recipient: string }): Promise<IntegrationTestResult> {
      const started = performance.now();
      let result: { ok: boolean; message: string };
      try {
        switch (name) {
          case 'email':
            result = await testEmail(context.recipient);
            break;
          case 'chat':
            result = await testChat();
            break;
          case 'geocoding':
            result = await testGeocoding();
            break;
          case 'maps':
            result = await testMaps();
            break;
          case 'payments':
            result = await testPayments();
            break;
        }
      } catch (error) {
        result = { ok: false, message: errorText(error) };
      }
      return { name, ok: result.ok, message: scrub(result.message), durationMs: Math.round(performance.now() - started) };
    },
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
