/**
 * Customer messaging throughput (issue 18, decision 021-b): 10,000 reminders due in the same
 * minute, run by `npm run bench` after the map benchmark, by `npm run bench -- --only messaging`
 * alone, or directly:
 *
 *   npx tsx bench/messaging.ts [--work-orders 10000] [--concurrency N] [--database-url URL]
 *
 * 1. Opens the embedded database as the server does (`openDatabase`: PGlite on its worker thread,
 *    migrated) in a temporary data dir; with --database-url, a scratch PostgreSQL database next to
 *    the given one, dropped at the end.
 * 2. Inserts, in multi-row statements, `--work-orders` customers (even ones with an e-mail; odd ones
 *    with a mobile number and texts opted in; every tenth both) and as many work orders, all
 *    scheduled tomorrow 14:00-16:00 company time. The work-order trigger queues them for planning.
 * 3. With the clock at today 09:00 company time, the messaging runner plans them (a confirmation and
 *    a reminder per channel), then sends the confirmations: both timed, not the bar.
 * 4. The clock moves to the minute the reminders are due (today 14:00) and the runner's
 *    `dispatchDue` sends them: the real path, texts through the Twilio-compatible sender to the
 *    tests' fake API server on 127.0.0.1 (in a child process, bench/fake-sms-process.ts), e-mails
 *    into the outbox in the transaction that marks them sent. Measured: the time until every
 *    reminder is handed over, messages per second, when each was handed over after the start (p50,
 *    p99), the time between text hand-overs, and this process's memory (RSS and heap) before, at its
 *    peak (sampled every 100 ms) and after. The PGlite worker thread is in this process, so its
 *    memory is in the RSS.
 * 5. Baselines in the same run: the channels alone, without the messaging layer. The same number
 *    of e-mails queued straight into the outbox (`enqueue`, 100 rows a statement), and texts sent
 *    straight through the sender to the fake API (one at a time and four at a time). Their sum is
 *    the floor the reminders are compared with.
 *
 * Bars: every reminder handed over within 60 s; memory flat (peak RSS minus the RSS before under
 * 100 MB). Figures only: a missed bar prints MISSED and the exit code stays 0. Real errors (the
 * database does not open, a reminder ends other than sent, the fake did not receive every text)
 * exit non-zero.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { createTwilioSender, type SmsSender } from '#server/adapters/sms/index.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { customerMessageConsents, customers, workOrders } from '#server/db/schema/index.ts';
import { createEmailOutbox } from '#server/modules/email/email-outbox.ts';
import { createDocumentLinkService } from '#server/modules/document-links/index.ts';
import { createDocumentLinkRepository } from '#server/modules/document-links/document-links.repository.ts';
import { createMessagingRunner } from '#server/modules/messaging/index.ts';
import { defaultMessagingConcurrency } from '#server/modules/messaging/messaging.runner.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { createScratchPostgresDatabase } from './database.ts';
import { fixed, formatTable, LatencyRecorder, projectRoot } from './lib.ts';

const resultsFile = path.join(projectRoot, 'bench/.data/results-messaging.json');
const handoverBarSeconds = 60;
const flatMemoryBarMb = 100;
const insertChunk = 1_000;

const { values: args } = parseArgs({ options: { 'work-orders': { type: 'string', default: '10000' }, concurrency: { type: 'string' }, 'database-url': { type: 'string' } } });
/** Messages a runner sends at once; unset, the runner's own default (what the server runs). */
const concurrency = args.concurrency === undefined ? undefined : Number(args.concurrency);
if (concurrency !== undefined && (!Number.isSafeInteger(concurrency) || concurrency < 1)) throw new Error('--concurrency must be a whole number >= 1');
const workOrderCount = Number(args['work-orders']);
if (!Number.isSafeInteger(workOrderCount) || workOrderCount < 1) throw new Error('--work-orders must be a whole number >= 1');

const company = companyProfileFrom(companyEnvSchema.parse({}));
const timeZone = company.timeZone;
const log = pino({ level: 'warn' });

// The fake SMS API in its own process --------------------------------------------------------------

type FakeSms = { url: string; accountSid: string; authToken: string; stop: () => Promise<number> };

async function startFakeSms(): Promise<FakeSms> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'bench/fake-sms-process.ts')], {
    cwd: projectRoot,
    // Its stdin is this process's pipe: when this process ends, however, the fake ends too.
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new Error('The fake SMS server exited before listening');
  const address = JSON.parse(first.value) as { url: string; accountSid: string; authToken: string };
  return {
    ...address,
    stop: async () => {
      child.kill('SIGTERM');
      const last = await iterator.next();
      lines.close();
      return last.done ? Number.NaN : (JSON.parse(last.value) as { accepted: number }).accepted;
    },
  };
}

// Memory -----------------------------------------------------------------------------------------

type MemorySample = { rssMb: number; heapMb: number };
const mb = (bytes: number) => bytes / 1024 / 1024;
function memoryNow(): MemorySample {
  const usage = process.memoryUsage();
  return { rssMb: mb(usage.rss), heapMb: mb(usage.heapUsed) };
}

/** Samples every 100 ms until stopped; answers the peaks. */
function sampleMemory(): () => MemorySample {
  const peak = memoryNow();
  const take = () => {
    const sample = memoryNow();
    peak.rssMb = Math.max(peak.rssMb, sample.rssMb);
    peak.heapMb = Math.max(peak.heapMb, sample.heapMb);
  };
  const timer = setInterval(take, 100);
  return () => {
    clearInterval(timer);
    take();
    return peak;
  };
}

// Data -------------------------------------------------------------------------------------------

const pad = (value: number, width: number) => String(value).padStart(width, '0');
/** A valid, distinct US mobile-format number per customer: (843) 3xx-xxxx. */
const phoneOf = (index: number) => {
  const digits = pad(index, 6);
  return `(843) 3${digits.slice(0, 2)}-${digits.slice(2)}`;
};
const hasEmail = (index: number) => index % 2 === 0;
const takesTexts = (index: number) => index % 2 === 1 || index % 10 === 0;

async function insertData(handle: DatabaseHandle, tomorrow: string): Promise<{ emails: number; texts: number }> {
  const { db } = handle;
  let emails = 0;
  let texts = 0;
  for (let from = 0; from < workOrderCount; from += insertChunk) {
    const indexes = Array.from({ length: Math.min(insertChunk, workOrderCount - from) }, (_, offset) => from + offset);
    const rows = await db
      .insert(customers)
      .values(
        indexes.map((index) => ({
          name: `Bench${index} Customer`,
          phone: phoneOf(index),
          email: hasEmail(index) ? `bench${index}@example.com` : null,
          address: `${index + 1} Marsh Hen Lane`,
          city: 'Bluffton',
          state: 'SC',
        })),
      )
      .returning({ id: customers.id });
    const ids = rows.map((row) => row.id);
    const consenting = indexes.filter(takesTexts);
    emails += indexes.filter(hasEmail).length;
    texts += consenting.length;
    if (consenting.length > 0) {
      await db.insert(customerMessageConsents).values(consenting.map((index) => ({ customerId: ids[index - from]!, channel: 'sms' as const, status: 'opted_in' as const, source: 'form' as const })));
    }
    await db.insert(workOrders).values(
      ids.map((customerId, offset) => ({
        customerId,
        title: `Bench visit ${from + offset + 1}`,
        serviceDate: tomorrow,
        status: 'scheduled',
        scheduledDate: sql`((${tomorrow}::date + '14:00'::time) at time zone ${timeZone})`,
        scheduledStartTime: '14:00',
        scheduledEndTime: '16:00',
        estimatedDuration: 2,
      })),
    );
  }
  return { emails, texts };
}

async function localInstant(handle: DatabaseHandle, date: string, time: string): Promise<Date> {
  const [row] = await handle.query<{ at: string | Date }>(`select (($1::date + $2::time) at time zone $3) as at`, [date, time, timeZone]);
  return new Date(row!.at);
}

async function statusCounts(handle: DatabaseHandle, type: string): Promise<Record<string, number>> {
  const rows = await handle.query<{ channel: string; status: string; count: string | number }>(
    `select channel, status, count(*) as count from messages where type = $1 group by channel, status order by channel, status`,
    [type],
  );
  return Object.fromEntries(rows.map((row) => [`${row.channel} ${row.status}`, Number(row.count)]));
}

// The run ----------------------------------------------------------------------------------------

const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000;
const okOrMissed = (isOk: boolean) => (isOk ? 'ok' : 'MISSED');

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-messaging-bench-'));
  // Ctrl-C (or npm run bench's runner passing on SIGTERM): remove the temporary data dir and stop.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  }
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  let handle: DatabaseHandle | undefined;
  let fake: FakeSms | undefined;
  try {
    if (args['database-url']) scratch = await createScratchPostgresDatabase(args['database-url'], 'messaging');
    const databaseLabel = scratch ? `PostgreSQL (scratch database ${new URL(scratch.url).pathname.slice(1)})` : 'PGlite (embedded, worker thread)';
    console.log(`Messaging benchmark: ${workOrderCount} work orders on ${databaseLabel}, ${concurrency ?? defaultMessagingConcurrency} sent at once; ${os.cpus().length} cores, load ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);

    let started = performance.now();
    handle = scratch ? await openDatabase({ kind: 'postgres', url: scratch.url }) : await openDatabase({ kind: 'pglite', dataDir });
    const openSeconds = seconds(started);
    fake = await startFakeSms();

    // The clock: plan at 09:00 company time, visits tomorrow at 14:00, reminders due today at 14:00.
    const today = todayIn(timeZone);
    const tomorrow = addDays(today, 1);
    const planAt = await localInstant(handle, today, '09:00');
    const visitStart = await localInstant(handle, tomorrow, '14:00');
    const dueAt = new Date(visitStart.getTime() - 24 * 3_600_000);
    let clock = planAt;

    started = performance.now();
    const people = await insertData(handle, tomorrow);
    const insertSeconds = seconds(started);
    console.log(`Inserted ${workOrderCount} customers (${people.emails} with e-mail, ${people.texts} taking texts) and work orders in ${insertSeconds.toFixed(1)} s`);

    // The channels, instrumented: when each message is handed over.
    const handovers: number[] = [];
    const textHandovers: number[] = [];
    let emailGroups = 0;
    const twilio = createTwilioSender({ apiUrl: fake.url, accountSid: fake.accountSid, authToken: fake.authToken, from: '+18435550100', timeoutMs: 10_000 });
    const sms: SmsSender = {
      kind: 'api',
      send: async (message) => {
        const result = await twilio.send(message);
        const at = performance.now();
        handovers.push(at);
        textHandovers.push(at);
        return result;
      },
    };
    const outbox = createEmailOutbox({
      db: handle.db,
      // Never started: only its enqueue is used, so this sender is never called.
      sender: { kind: 'file', send: () => Promise.reject(new Error('the benchmark delivers no e-mail')), close: () => undefined },
      from: company.email,
      log,
    });
    // kick() is called after the transaction that queued the e-mails and marked them sent commits:
    // they are then in the outbox for good.
    let queuedEmails = 0;
    const documentLinks = createDocumentLinkService({ repository: createDocumentLinkRepository(handle.db), now: () => clock });
    const runner = createMessagingRunner({
      db: handle.db,
      outbox: {
        enqueue: async (executor, emails) => {
          const ids = await outbox.enqueue(executor, emails);
          queuedEmails += ids.length;
          return ids;
        },
        kick: () => {
          const at = performance.now();
          if (queuedEmails > 0) emailGroups += 1;
          for (; queuedEmails > 0; queuedEmails -= 1) handovers.push(at);
        },
      },
      sms,
      company,
      timeZone,
      log,
      now: () => clock,
      concurrency,
      // As app.ts gives it: the confirmations carry the visit's link (issue 21), made when sent.
      createDocumentLink: (executor, link) => documentLinks.create(executor, link),
    });

    started = performance.now();
    const planned = await runner.planPending();
    const planSeconds = seconds(started);

    clock = new Date(planAt.getTime() + 60_000);
    handovers.length = 0;
    started = performance.now();
    const confirmationOutcomes = await runner.dispatchDue();
    const confirmationSeconds = seconds(started);
    const confirmations = handovers.length;
    const confirmationCounts = await statusCounts(handle, 'appointment_confirmed');

    // The reminders: the clock moves to the minute they are due.
    clock = new Date(dueAt.getTime() + 30_000);
    handovers.length = 0;
    textHandovers.length = 0;
    emailGroups = 0;
    const dueReminders = Number((await handle.query<{ count: string | number }>(`select count(*) as count from messages where type = 'appointment_reminder' and status = 'scheduled' and send_at <= $1`, [clock.toISOString()]))[0]!.count);
    (globalThis as { gc?: () => void }).gc?.();
    const memoryBefore = memoryNow();
    const stopSampling = sampleMemory();
    started = performance.now();
    const reminderOutcomes = await runner.dispatchDue();
    const reminderSeconds = seconds(started);
    const memoryPeak = stopSampling();
    const memoryAfter = memoryNow();
    const reminderCounts = await statusCounts(handle, 'appointment_reminder');
    const remindersSent = Object.entries(reminderCounts).filter(([key]) => key.endsWith(' sent')).reduce((sum, [, count]) => sum + count, 0);
    const reminderTexts = reminderCounts['sms sent'] ?? 0;
    const reminderEmails = reminderCounts['email sent'] ?? 0;

    const sinceStart = new LatencyRecorder();
    const between = new LatencyRecorder();
    for (const at of handovers) sinceStart.record(at - started);
    textHandovers.forEach((at, index) => between.record(at - (index === 0 ? started : textHandovers[index - 1]!)));
    const sinceStartFigures = sinceStart.summarize(reminderSeconds);
    const betweenFigures = between.summarize(reminderSeconds);

    // Baselines: the channels alone.
    started = performance.now();
    for (let from = 0; from < reminderEmails; from += 100) {
      const count = Math.min(100, reminderEmails - from);
      await outbox.enqueue(
        handle.db,
        Array.from({ length: count }, (_, offset) => ({ recipients: [`baseline${from + offset}@example.com`], subject: 'Reminder: your visit tomorrow', text: 'A baseline e-mail of about a reminder’s size.'.repeat(6), kind: 'bench_baseline' })),
      );
    }
    const outboxSeconds = seconds(started);
    const outboxPerSecond = reminderEmails / outboxSeconds;

    const smsSample = Math.min(2_000, Math.max(reminderTexts, 1));
    const smsRate = async (inFlight: number) => {
      let next = 0;
      const begun = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < smsSample) {
            next += 1;
            await twilio.send({ to: `+1843390${pad(next % 10_000, 4)}`, body: 'Reminder: your visit with Lowcountry Comfort is tomorrow, 2:00-4:00 PM. Reply C to confirm.' });
          }
        }),
      );
      return smsSample / seconds(begun);
    };
    const smsPerSecond = await smsRate(1);
    const smsPerSecond4 = await smsRate(4);
    const floorSeconds = reminderEmails / outboxPerSecond + reminderTexts / smsPerSecond;

    const accepted = await fake.stop();
    fake = undefined;
    const expectedAccepted = (confirmationCounts['sms sent'] ?? 0) + reminderTexts + smsSample * 2;

    // Report.
    const perSecond = remindersSent / reminderSeconds;
    const memoryGrowth = memoryPeak.rssMb - memoryBefore.rssMb;
    const isInTime = remindersSent === dueReminders && reminderSeconds <= handoverBarSeconds;
    const isFlat = memoryGrowth < flatMemoryBarMb;
    console.log('');
    console.log(
      formatTable(
        ['step', 'messages', 'seconds', 'msg/s', ''],
        [
          ['open database (migrations)', '', fixed(openSeconds, 1), '', ''],
          ['insert customers + work orders', String(workOrderCount), fixed(insertSeconds, 1), '', ''],
          ['plan (confirmations + reminders)', String(planned.inserted), fixed(planSeconds, 1), fixed(planned.inserted / planSeconds, 0), `${planned.workOrders} work orders`],
          ['send confirmations (not the bar)', String(confirmations), fixed(confirmationSeconds, 1), fixed(confirmations / confirmationSeconds, 0), JSON.stringify(confirmationOutcomes)],
          ['send reminders (the bar)', String(remindersSent), fixed(reminderSeconds, 1), fixed(perSecond, 0), JSON.stringify(reminderOutcomes)],
        ],
      ),
    );
    console.log('');
    console.log(`Reminders due: ${dueReminders} (${reminderEmails} e-mails, ${reminderTexts} texts); final states ${JSON.stringify(reminderCounts)}`);
    console.log(`Handed over after the start: p50 ${fixed(sinceStartFigures.p50Ms / 1000, 2)} s, p99 ${fixed(sinceStartFigures.p99Ms / 1000, 2)} s, last ${fixed(reminderSeconds, 2)} s`);
    console.log(`Time per text (between text hand-overs): p50 ${fixed(betweenFigures.p50Ms, 2)} ms, p99 ${fixed(betweenFigures.p99Ms, 2)} ms; e-mails handed over in ${emailGroups} groups (one transaction each)`);
    console.log(
      `Baseline (channels alone, same run): outbox enqueue ${fixed(outboxPerSecond, 0)} e-mails/s; fake SMS API ${fixed(smsPerSecond, 0)} texts/s one at a time, ${fixed(smsPerSecond4, 0)} texts/s four at a time; ` +
        `floor for these reminders ${fixed(floorSeconds, 2)} s, measured ${fixed(reminderSeconds / floorSeconds, 1)}x the floor`,
    );
    console.log(
      `Memory of this process (RSS includes the PGlite thread): RSS ${fixed(memoryBefore.rssMb, 0)} -> peak ${fixed(memoryPeak.rssMb, 0)} -> after ${fixed(memoryAfter.rssMb, 0)} MB; ` +
        `heap ${fixed(memoryBefore.heapMb, 0)} -> peak ${fixed(memoryPeak.heapMb, 0)} -> after ${fixed(memoryAfter.heapMb, 0)} MB`,
    );
    console.log('');
    console.log(`Bar: all ${dueReminders} reminders handed over within ${handoverBarSeconds} s: ${fixed(reminderSeconds, 1)} s  ${okOrMissed(isInTime)}`);
    console.log(`Bar: memory flat (peak RSS - RSS before < ${flatMemoryBarMb} MB): +${fixed(memoryGrowth, 0)} MB  ${okOrMissed(isFlat)}`);

    if (remindersSent !== dueReminders || remindersSent !== (people.emails + people.texts)) {
      throw new Error(`Not every reminder was sent: ${JSON.stringify(reminderCounts)} of ${dueReminders} due, ${people.emails + people.texts} expected`);
    }
    if (accepted !== expectedAccepted) throw new Error(`The fake SMS API accepted ${accepted} texts, expected ${expectedAccepted}`);

    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    fs.writeFileSync(
      resultsFile,
      `${JSON.stringify(
        {
          at: new Date().toISOString(),
          database: scratch ? 'postgres' : 'pglite',
          workOrders: workOrderCount,
          concurrency: concurrency ?? defaultMessagingConcurrency,
          loadAverage: os.loadavg(),
          seconds: { open: openSeconds, insert: insertSeconds, plan: planSeconds, confirmations: confirmationSeconds, reminders: reminderSeconds },
          reminders: { due: dueReminders, sent: remindersSent, emails: reminderEmails, texts: reminderTexts, perSecond, outcomes: reminderOutcomes },
          confirmations: { sent: confirmations, outcomes: confirmationOutcomes },
          handedOverAfterStartMs: { p50: sinceStartFigures.p50Ms, p99: sinceStartFigures.p99Ms },
          betweenTextHandoversMs: { p50: betweenFigures.p50Ms, p99: betweenFigures.p99Ms },
          emailGroups,
          baseline: { outboxPerSecond, smsPerSecond, smsPerSecond4, floorSeconds, ratio: reminderSeconds / floorSeconds },
          memoryMb: { before: memoryBefore, peak: memoryPeak, after: memoryAfter, growth: memoryGrowth },
          bars: { inTime: isInTime, flat: isFlat },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await fake?.stop().catch(() => undefined);
    await handle?.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop().catch(() => undefined);
  }
}

await main();
