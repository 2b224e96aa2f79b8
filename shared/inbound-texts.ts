import { z } from 'zod';

/**
 * The inbound-text webhook's contract (issue 18, decision 021-a): `POST /api/public/sms/inbound`,
 * called by the SMS provider (Twilio's messaging webhook) for every text a customer sends to the
 * company's number.
 */

/** The path the provider posts to; its public URL is COMPANY_SITE_URL followed by this. */
export const inboundTextPath = '/api/public/sms/inbound';

/**
 * Every form parameter the provider posts, as text (MessageSid, From, To, Body, and whatever else
 * it adds: the signature covers them all, so none is dropped or renamed).
 */
export const inboundTextParamsSchema = z
  .record(z.string(), z.string())
  .describe('The provider\'s form parameters (application/x-www-form-urlencoded): MessageSid, From, To, Body, ...');
export type InboundTextParams = z.infer<typeof inboundTextParamsSchema>;

/** The answer: TwiML (text/xml), one reply text or an empty `<Response/>`. */
export const twimlResponseSchema = z.string().describe('TwiML (text/xml): <Response><Message>reply</Message></Response>, or <Response/> for no reply');
