import { fakeStripeFixedKeys, startFakeStripeServer, type WebhookMode } from './fake-stripe-server.ts';

/**
 * The fake Stripe as its own process, for browser journeys (Playwright's webServer list):
 *
 *   npx tsx tests/support/fake-stripe-main.ts --port 4242 --webhook-url http://127.0.0.1:3210/api/public/payments/stripe/webhook
 *
 * It uses `fakeStripeFixedKeys`: start the app with STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET set
 * to those and STRIPE_API_URL=http://127.0.0.1:<port>. Ready when GET /_fake/health answers; the
 * journey drives it through the /_fake/ controls (fake-stripe-server.ts). Stops on SIGTERM/SIGINT.
 */
function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const port = Number(argument('port') ?? 4242);
const webhookTarget = argument('webhook-url');
const webhookMode = (argument('webhook-mode') ?? 'before-redirect') as WebhookMode;
const fake = await startFakeStripeServer({ ...fakeStripeFixedKeys, port, webhookTarget, webhookMode });
console.log(`fake Stripe listening on ${fake.url}${webhookTarget ? `, webhooks to ${webhookTarget}` : ''}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
