/**
 * The tests' fake Twilio-compatible SMS API (tests/support/fake-sms-server.ts) in a process of its
 * own, for bench/messaging.ts: the texts it records and its request handling then count neither in
 * the measured process's memory nor on its event loop.
 *
 * Prints one JSON line when listening: `{ "url", "accountSid", "authToken" }`. On SIGTERM it
 * prints `{ "accepted": n }` (texts answered 201) and exits; it also exits when its stdin closes
 * (the benchmark ended without stopping it, e.g. killed).
 */
import { startFakeSmsServer } from '#tests/support/fake-sms-server.ts';

const fake = await startFakeSmsServer();
process.stdout.write(`${JSON.stringify({ url: fake.url, accountSid: fake.accountSid, authToken: fake.authToken })}\n`);
// The recorded request objects are what the bench does not need: keep the list from growing.
const trim = setInterval(() => fake.requests.splice(0, fake.requests.length), 1_000);

process.stdin.resume();
process.stdin.once('close', () => process.exit(0));
process.once('SIGTERM', () => {
  clearInterval(trim);
  process.stdout.write(`${JSON.stringify({ accepted: fake.messages.length })}\n`, () => {
    void fake.close().finally(() => process.exit(0));
  });
});
