// Loaded when the visitor starts on the sign-up form, so the plans page does not carry the
// validation library before anyone interacts with it.
import '#client/lib/zod-client.ts';

export { agreementSignupRequestSchema } from '#shared/agreement-signup.ts';
