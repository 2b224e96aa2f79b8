import { percentile } from './lib.ts';
import { isEvent, openEventStream } from '#tests/support/event-stream-client.ts';

export type LiveLatency = { samples: number; p50Ms: number; p99Ms: number; maxMs: number };

/**
 * Issue 7: how long after a visitor submits an estimate request a signed-in staff member's event
 * stream (/api/admin/events) carries the change. One stream, `samples` submits one after another;
 * each time runs from sending the POST to the `change` event for estimate_requests arriving.
 */
export async function measureLiveLatency(baseUrl: string, cookie: string, samples: number): Promise<LiveLatency> {
  const stream = await openEventStream(`${baseUrl}/api/admin/events`, { cookie });
  if (stream.status !== 200) throw new Error(`GET /api/admin/events answered ${stream.status}: ${stream.body().slice(0, 300)}`);
  try {
    await stream.waitFor(isEvent('ready'));
    const times = new Float64Array(samples);
    for (let index = 0; index < samples; index += 1) {
      const from = stream.received.length;
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/public/estimate-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `bench-live-${Date.now().toString(36)}-${index}` },
        body: JSON.stringify({
          name: 'Bench Visitor',
          email: 'bench.visitor@example.com',
          phone: '(843) 555-0188',
          address: '2 Benchmark Way, Bluffton, SC 29910',
          serviceType: 'ac-repair',
          description: 'Live-update latency benchmark',
          preferredDate: '',
          preferredTime: '',
        }),
      });
      const body = await response.text();
      if (response.status !== 201 && response.status !== 200) throw new Error(`POST /api/public/estimate-requests answered ${response.status}: ${body.slice(0, 300)}`);
      await stream.waitFor(isEvent('change', { topic: 'estimate_requests', action: 'insert' }), { fromIndex: from, timeoutMs: 10_000 });
      times[index] = performance.now() - started;
    }
    times.sort();
    return { samples, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: times[samples - 1]! };
  } finally {
    stream.close();
  }
}
