// Loaded when the visitor starts on the form, so the public pages do not carry the validation
// library before anyone interacts with them.
import '#client/lib/zod-client.ts';

export { estimateRequestSchema } from '#shared/estimate.ts';
