/**
 * The `/healthz` probe of `npm run bench` (issue 17 item 1), run as its own process so that the
 * load generator's event loop does not delay its timings: one connection, one request at a time
 * (keep-alive), for `seconds`; prints its figures as one JSON line on stdout.
 *
 *   npx tsx bench/healthz-probe.ts <url> <seconds>
 */
import http from 'node:http';
import { LatencyRecorder } from './lib.ts';

const [url, secondsText] = process.argv.slice(2);
const seconds = Number(secondsText);
if (!url || !(seconds > 0)) {
  console.error('usage: bench/healthz-probe.ts <url> <seconds>');
  process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(): Promise<number> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const request = http.get(url!, { agent }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve(performance.now() - startedAt) : reject(new Error(`GET ${url} answered ${response.statusCode}`))));
    });
    request.on('error', reject);
  });
}

const recorder = new LatencyRecorder();
let maxMs = 0;
const endAt = performance.now() + seconds * 1000;
while (performance.now() < endAt) {
  const ms = await get();
  recorder.record(ms);
  maxMs = Math.max(maxMs, ms);
}
agent.destroy();
process.stdout.write(`${JSON.stringify({ ...recorder.summarize(seconds), maxMs })}\n`);
