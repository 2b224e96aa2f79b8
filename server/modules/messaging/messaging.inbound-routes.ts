import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { inboundTextParamsSchema, inboundTextPath, twimlResponseSchema } from '#shared/inbound-texts.ts';
import { twilioSignatureHeader, verifyTwilioSignature } from '#server/adapters/sms/twilio-signature.ts';
import { AppError } from '#server/errors.ts';
import type { InboundTextService } from './messaging.inbound.ts';

/** A provider's webhook body is a few hundred bytes; a long text is at most 1,600 characters. */
const bodyLimit = 16 * 1024;

/**
 * The SMS provider's inbound-text webhook (public: the provider has no session). Registered as its
 * own encapsulated plugin, so the form-body parser it adds serves this route only.
 *
 * - No SMS API configured (`smsAuthToken` undefined): 404, as for any unknown address (no provider
 *   can be calling).
 * - The `X-Twilio-Signature` over COMPANY_SITE_URL + the path and every form parameter, keyed with
 *   SMS_AUTH_TOKEN: missing or wrong is a 403 and nothing is stored.
 * - Rate-limited per client address, generously (the provider calls from many addresses, each
 *   carrying many customers' texts).
 */
export async function inboundTextRoutes(
  app: FastifyInstance,
  options: { inbound: InboundTextService; smsAuthToken: string | undefined; siteUrl: string },
): Promise<void> {
  const { inbound, smsAuthToken } = options;
  const webhookUrl = options.siteUrl.replace(/\/+$/, '') + inboundTextPath;

  // Every value a plain string: the platform's parser, last value of a repeated name (the provider repeats none).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    inboundTextPath,
    {
      bodyLimit,
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: { body: inboundTextParamsSchema, response: { 200: twimlResponseSchema } },
      // Before the body is read: without an SMS API there is nothing here.
      onRequest: async (request) => {
        if (smsAuthToken === undefined) throw new AppError('NOT_FOUND', `No route for ${request.method} ${inboundTextPath}`);
      },
    },
    async (request, reply) => {
      const params = request.body;
      const header = request.headers[twilioSignatureHeader];
      const signature = typeof header === 'string' ? header : undefined;
      if (!smsAuthToken || !verifyTwilioSignature({ authToken: smsAuthToken, url: webhookUrl, params, signature })) {
        throw new AppError('FORBIDDEN', 'The request signature is not valid.');
      }
      const providerId = params.MessageSid ?? params.SmsMessageSid ?? params.SmsSid;
      const from = params.From;
      if (!providerId || !from) throw new AppError('VALIDATION_FAILED', 'MessageSid and From are required.');
      const twiml = await inbound.receive({ providerId, from, body: params.Body ?? '' });
      // A string with a non-JSON content type is sent as it is (no serializer).
      return reply.status(200).header('content-type', 'text/xml; charset=utf-8').header('cache-control', 'no-store').send(twiml);
    },
  );
}
