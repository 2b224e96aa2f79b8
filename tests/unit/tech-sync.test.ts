import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { techBatchMaxActions, type TechVisit } from '#shared/tech.ts';
import { localVisit } from '#client/features/tech/apply-action.ts';
import { forgetTechnician, TechDatabase } from '#client/features/tech/db.ts';
import { splitByTechnician } from '#client/features/tech/runtime.ts';
import { createTechSync, type TechSync } from '#client/features/tech/sync.ts';

/**
 * The technician app's offline queue (decision 022-b) against a real HTTP server on 127.0.0.1 that
 * keeps one visit the way /api/tech does: a version (updatedAt) each change moves on, the 409 rule
 * on a stale base version, and idempotency keys applied once. fake-indexeddb is the device.
 */

type Received = { kind: string; key: string; base: string; applied: boolean; status: number };

function visitFixture(updatedAt: string): TechVisit {
  return {
    id: 'wo-1',
    workOrderNumber: 'WO-1',
    title: 'AC not cooling',
    description: 'Upstairs unit',
    serviceType: 'repair',
    priority: 'high',
    status: 'scheduled',
    serviceDate: '2026-11-25',
    timePreference: 'morning',
    scheduledStartTime: '08:00:00',
    scheduledEndTime: '10:00:00',
    officeNotes: null,
    specialInstructions: null,
    enRouteAt: null,
    onSiteAt: null,
    completedAt: null,
    updatedAt,
    customer: { id: 'c-1', name: 'Ann Lee', phone: '8435550100', email: null },
    site: { address: '1 Main St', city: 'Bluffton', state: 'SC', zip: '29910', latitude: null, longitude: null },
    equipmentId: null,
    equipment: [],
    tasks: [
      { id: 't-1', workOrderId: 'wo-1', taskName: 'Check refrigerant', status: 'pending', timeSpentMinutes: null, createdAt: updatedAt },
      { id: 't-2', workOrderId: 'wo-1', taskName: 'Replace filter', status: 'pending', timeSpentMinutes: null, createdAt: updatedAt },
    ],
    inspectionReport: null,
    notes: [],
    photos: [],
    history: [],
    completion: null,
    invoices: [],
  };
}

/** A small stand-in for /api/tech with the server's rules; `mode` makes the next answers fail as a network does. */
async function startTechServer() {
  let clock = Date.parse('2026-11-25T12:00:00.000Z');
  const tick = () => new Date((clock += 1000)).toISOString();
  const state = {
    visit: visitFixture(tick()),
    received: [] as Received[],
    photoKeys: [] as string[],
    applied: new Map<string, TechVisit>(),
    photos: new Map<string, { id: string }>(),
    /** 'drop': apply, then cut the connection (the answer is lost); 'down': cut before applying. */
    mode: 'up' as 'up' | 'drop' | 'down',
    refuse: new Set<string>(),
    refuseStep: new Set<string>(),
    thumbnailGets: 0,
    /** Who the session is (a shared phone: another technician signs in). */
    technician: { id: 'tech-1', name: 'Sam', color: '#123456' },
    /** The technician each applied action was sent as. */
    sentAs: [] as string[],
    /** The size of each batch received. */
    batches: [] as number[],
    /** The office edits the job right after this many actions were applied (in the middle of a batch). */
    officeEditAfter: 0,
  };
  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  type SentAction = { kind: string; idempotencyKey: string; baseUpdatedAt: string; taskId?: string; status?: string; text?: string };
  /** The single route's rules for one action: its HTTP status and answer. */
  const applyAction = (action: SentAction): { status: number; body: unknown } => {
    const replay = state.applied.get(action.idempotencyKey);
    if (replay) {
      state.received.push({ kind: action.kind, key: action.idempotencyKey, base: action.baseUpdatedAt, applied: false, status: 200 });
      return { status: 200, body: { visit: state.visit, applied: false } };
    }
    if (state.refuseStep.has(action.kind)) {
      state.received.push({ kind: action.kind, key: action.idempotencyKey, base: action.baseUpdatedAt, applied: false, status: 409 });
      return { status: 409, body: { error: { code: 'CONFLICT', message: `A completed job cannot be marked ${action.kind}.` } } };
    }
    if (state.refuse.has(action.kind)) {
      state.received.push({ kind: action.kind, key: action.idempotencyKey, base: action.baseUpdatedAt, applied: false, status: 400 });
      return { status: 400, body: { error: { code: 'VALIDATION', message: 'Refused on purpose' } } };
    }
    if (action.baseUpdatedAt !== state.visit.updatedAt) {
      state.received.push({ kind: action.kind, key: action.idempotencyKey, base: action.baseUpdatedAt, applied: false, status: 409 });
      return { status: 409, body: { error: { code: 'CONFLICT', message: 'Changed by the office', details: { current: state.visit } } } };
    }
    const visit = { ...state.visit, updatedAt: tick() };
    if (action.kind === 'en-route') visit.enRouteAt = visit.updatedAt;
    if (action.kind === 'on-site') Object.assign(visit, { onSiteAt: visit.updatedAt, status: 'in-progress' });
    if (action.kind === 'task') visit.tasks = visit.tasks.map((task) => (task.id === action.taskId ? { ...task, status: action.status! } : task));
    if (action.kind === 'note') visit.notes = [...visit.notes, { id: `n-${visit.notes.length + 1}`, text: action.text!, authorName: 'Sam', createdAt: visit.updatedAt }];
    state.visit = visit;
    state.applied.set(action.idempotencyKey, visit);
    state.sentAs.push(`${state.technician.name}: ${action.text ?? action.kind}`);
    state.received.push({ kind: action.kind, key: action.idempotencyKey, base: action.baseUpdatedAt, applied: true, status: 200 });
    if (state.applied.size === state.officeEditAfter) state.visit = { ...state.visit, title: 'Edited by the office', updatedAt: tick() };
    return { status: 200, body: { visit, applied: true } };
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (state.mode === 'down') return void request.socket.destroy();
      const url = request.url ?? '';
      if (request.method === 'GET' && url.startsWith('/api/tech/visits?')) {
        return send(response, 200, { technician: state.technician, from: '2026-11-25', days: 3, visits: [state.visit], syncedAt: tick() });
      }
      if (request.method === 'GET' && url === '/api/tech/session') {
        return send(response, 200, { user: { id: `u-${state.technician.id}`, email: 'tech@example.com', name: state.technician.name, role: 'technician' }, technician: state.technician });
      }
      if (request.method === 'GET' && /^\/x\/p-\d+\/t$/.test(url)) {
        state.thumbnailGets += 1;
        response.writeHead(200, { 'content-type': 'image/webp' });
        return void response.end(Buffer.from([1, 2, 3]));
      }
      if (request.method === 'POST' && url === '/api/tech/visits/wo-1/photos') {
        const key = String(request.headers['idempotency-key']);
        state.photoKeys.push(key);
        let photo = state.photos.get(key);
        if (!photo) {
          photo = { id: `p-${state.photos.size + 1}` };
          state.photos.set(key, photo);
          state.visit = { ...state.visit, photos: [...state.visit.photos, { ...photo, url: `/x/${photo.id}`, thumbnailUrl: `/x/${photo.id}/t`, workOrderId: 'wo-1', createdAt: tick() }] };
        }
        if (state.mode === 'drop') return void request.socket.destroy();
        return send(response, 201, { photos: state.visit.photos.filter((existing) => existing.id === photo.id) });
      }
      if (request.method === 'POST' && url === '/api/tech/visits/wo-1/actions') {
        const outcome = applyAction(JSON.parse(Buffer.concat(chunks).toString('utf8')) as SentAction);
        if (state.mode === 'drop' && outcome.status === 200) return void request.socket.destroy();
        return send(response, outcome.status, outcome.body);
      }
      if (request.method === 'POST' && url === '/api/tech/visits/wo-1/actions/batch') {
        // The server's batch (tech.service.ts actBatch): in order, the device's chain followed, stopped at the first refusal.
        const { actions } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { actions: SentAction[] };
        state.batches.push(actions.length);
        if (actions.length > techBatchMaxActions) return send(response, 400, { error: { code: 'VALIDATION_FAILED', message: 'Too many' } });
        const results: { idempotencyKey: string; applied: boolean; updatedAt: string }[] = [];
        const chain = new Map<string, string>();
        let stopped: { idempotencyKey: string; reason: 'conflict' | 'refused'; status: number; code: string; message: string } | null = null;
        for (const action of actions) {
          const base = chain.get(action.baseUpdatedAt) ?? action.baseUpdatedAt;
          const outcome = applyAction({ ...action, baseUpdatedAt: base });
          if (outcome.status !== 200) {
            const error = (outcome.body as { error: { code: string; message: string; details?: { current?: TechVisit } } }).error;
            stopped = { idempotencyKey: action.idempotencyKey, reason: error.details?.current ? 'conflict' : 'refused', status: outcome.status, code: error.code, message: error.message };
            break;
          }
          const answer = outcome.body as { applied: boolean; visit: TechVisit };
          const updatedAt = answer.visit.updatedAt;
          results.push({ idempotencyKey: action.idempotencyKey, applied: answer.applied, updatedAt });
          for (const [from, to] of chain) if (to === base) chain.set(from, updatedAt);
          chain.set(action.baseUpdatedAt, updatedAt);
          chain.set(base, updatedAt);
        }
        if (state.mode === 'drop' && results.length > 0) return void request.socket.destroy();
        return send(response, 200, { results, stopped, visit: state.visit });
      }
      send(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** The dispatcher edits the job: a new version. */
    officeEdit: (change: Partial<TechVisit>) => {
      state.visit = { ...state.visit, ...change, updatedAt: tick() };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: Awaited<ReturnType<typeof startTechServer>>;
let db: TechDatabase;
let sync: TechSync;
let clock = 0;

beforeEach(async () => {
  server = await startTechServer();
  db = new TechDatabase(`tech-test-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  clock = Date.parse('2026-11-25T13:00:00.000Z');
  sync = createTechSync({ db, baseUrl: server.url, today: () => '2026-11-25', now: () => new Date((clock += 1000)) });
  expect(await sync.refresh()).toBe('ok');
});

afterEach(async () => {
  db.close();
  await server.close();
});

const shown = async () => localVisit((await db.visits.get('wo-1'))!.visit, await db.queue.toArray());

describe('the technician app sync queue', () => {
  it('applies actions on the device at once and sends them in order, each on the version the previous one made', async () => {
    server.state.mode = 'down';
    await sync.enqueue('wo-1', { kind: 'en-route' });
    await sync.enqueue('wo-1', { kind: 'on-site' });
    await sync.enqueue('wo-1', { kind: 'task', taskId: 't-2', status: 'completed' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'Filter was clogged' });

    const offline = await shown();
    expect(offline.status).toBe('in-progress');
    expect(offline.tasks.find((task) => task.id === 't-2')?.status).toBe('completed');
    expect(offline.notes.map((note) => note.text)).toEqual(['Filter was clogged']);
    expect(await sync.syncNow()).toEqual({ sent: 0, stoppedBy: 'network' });
    expect(await sync.waitingCount()).toBe(4);

    server.state.mode = 'up';
    expect(await sync.syncNow()).toEqual({ sent: 4, stoppedBy: undefined });
    expect(server.state.received.map((request) => [request.kind, request.status])).toEqual([
      ['en-route', 200],
      ['on-site', 200],
      ['task', 200],
      ['note', 200],
    ]);
    // The chain: each action named the version the one before it produced.
    const versions = server.state.received.map((request) => request.base);
    expect(new Set(versions).size).toBe(4);
    expect(await sync.waitingCount()).toBe(0);
    const stored = (await db.visits.get('wo-1'))!.visit;
    expect(stored.updatedAt).toBe(server.state.visit.updatedAt);
    expect(stored.notes).toHaveLength(1);
    expect(stored.onSiteAt).not.toBeNull();
  });

  it('applies an action exactly once when its answer was lost and it is sent again', async () => {
    await sync.enqueue('wo-1', { kind: 'note', text: 'Once only' });
    await sync.enqueue('wo-1', { kind: 'task', taskId: 't-1', status: 'completed' });
    server.state.mode = 'drop';
    expect((await sync.syncNow()).stoppedBy).toBe('network');
    expect(await sync.waitingCount()).toBe(2);

    server.state.mode = 'up';
    expect((await sync.syncNow()).stoppedBy).toBeUndefined();
    // One batch, applied, its answer lost; sent again, both replayed: nothing applied twice.
    expect(server.state.received.map((request) => [request.kind, request.applied])).toEqual([
      ['note', true],
      ['task', true],
      ['note', false],
      ['task', false],
    ]);
    expect(server.state.batches).toEqual([2, 2]);
    expect(server.state.visit.notes.map((note) => note.text)).toEqual(['Once only']);
    expect(server.state.visit.tasks.find((task) => task.id === 't-1')?.status).toBe('completed');
    expect(await sync.waitingCount()).toBe(0);
  });

  it('keeps a stale action with the office version on a 409; "Keep mine" resends it with the same key on the current version', async () => {
    await sync.enqueue('wo-1', { kind: 'task', taskId: 't-1', status: 'completed' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'Done' });
    server.officeEdit({ title: 'AC not cooling (dispatcher edit)' });

    expect((await sync.syncNow()).sent).toBe(0);
    const [conflict, next] = await db.queue.orderBy('seq').toArray();
    expect(conflict!.state).toBe('conflict');
    expect(conflict!.current?.title).toBe('AC not cooling (dispatcher edit)');
    // Nothing after the conflict was sent around it.
    expect(next!.state).toBe('pending');
    expect(server.state.received.map((request) => request.status)).toEqual([409]);
    // The screen still shows the technician's change until they choose.
    expect((await shown()).tasks.find((task) => task.id === 't-1')?.status).toBe('completed');

    await sync.keepMine(conflict!.seq!);
    expect((await sync.syncNow()).sent).toBe(2);
    const resent = server.state.received[1]!;
    expect(resent.key).toBe(conflict!.action.idempotencyKey);
    expect(resent.applied).toBe(true);
    expect(server.state.visit.tasks.find((task) => task.id === 't-1')?.status).toBe('completed');
    expect(server.state.visit.title).toBe('AC not cooling (dispatcher edit)');
    expect(server.state.visit.notes).toHaveLength(1);
  });

  it('"Use the office\'s" drops the action and shows the office version', async () => {
    await sync.enqueue('wo-1', { kind: 'task', taskId: 't-1', status: 'completed' });
    server.officeEdit({ tasks: server.state.visit.tasks.map((task) => (task.id === 't-1' ? { ...task, taskName: 'Check refrigerant (R-410A)' } : task)) });
    await sync.syncNow();
    const [conflict] = await db.queue.toArray();
    await sync.useOffice(conflict!.seq!);
    expect(await sync.waitingCount()).toBe(0);
    const visit = await shown();
    expect(visit.tasks.find((task) => task.id === 't-1')).toMatchObject({ taskName: 'Check refrigerant (R-410A)', status: 'pending' });
    expect(visit.updatedAt).toBe(server.state.visit.updatedAt);
  });

  it('marks an action the server refuses (4xx) as failed and keeps it, and sends the rest', async () => {
    server.state.refuse.add('en-route');
    await sync.enqueue('wo-1', { kind: 'en-route' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'After a refusal' });
    expect((await sync.syncNow()).sent).toBe(1);
    const [failed] = await db.queue.toArray();
    expect(failed).toMatchObject({ state: 'failed', error: 'Refused on purpose' });
    expect(await sync.waitingCount()).toBe(1);
    expect(server.state.visit.notes).toHaveLength(1);
  });

  it('keeps a refused step (a 409 without the office version) as failed, and sends the rest', async () => {
    server.state.refuseStep.add('on-site');
    await sync.enqueue('wo-1', { kind: 'on-site' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'Still sent' });
    expect((await sync.syncNow()).sent).toBe(1);
    const [refused] = await db.queue.toArray();
    expect(refused).toMatchObject({ state: 'failed', error: 'A completed job cannot be marked on-site.' });
    expect(server.state.visit.notes).toHaveLength(1);
  });

  it('sends a long queue in batches of at most techBatchMaxActions, in order, each action once, on the chained versions', async () => {
    server.state.mode = 'down';
    for (let index = 1; index <= 120; index += 1) await sync.enqueue('wo-1', { kind: 'note', text: `Note ${index}` });
    expect((await sync.syncNow()).stoppedBy).toBe('network');
    server.state.mode = 'up';
    expect(await sync.syncNow()).toEqual({ sent: 120, stoppedBy: undefined });
    expect(server.state.batches).toEqual([techBatchMaxActions, techBatchMaxActions, 120 - 2 * techBatchMaxActions]);
    expect(server.state.visit.notes.map((note) => note.text)).toEqual(Array.from({ length: 120 }, (_, index) => `Note ${index + 1}`));
    expect(server.state.received.every((request) => request.applied)).toBe(true);
    expect(await sync.waitingCount()).toBe(0);
    expect((await db.visits.get('wo-1'))!.visit.updatedAt).toBe(server.state.visit.updatedAt);
  });

  it('stops a batch at a conflict: what came before stays applied, the conflict waits with the office version, the rest stays queued in order', async () => {
    await sync.enqueue('wo-1', { kind: 'note', text: 'First' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'Second' });
    await sync.enqueue('wo-1', { kind: 'task', taskId: 't-1', status: 'completed' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'After the conflict' });
    server.state.officeEditAfter = 2;

    expect(await sync.syncNow()).toEqual({ sent: 2, stoppedBy: undefined });
    expect(server.state.batches).toEqual([4]);
    const [conflict, rest] = await db.queue.orderBy('seq').toArray();
    expect(conflict).toMatchObject({ state: 'conflict', error: 'Changed by the office' });
    expect(conflict!.action.kind).toBe('task');
    expect(conflict!.current?.title).toBe('Edited by the office');
    expect(rest).toMatchObject({ state: 'pending' });
    // Both stand on the version the second note left (the chain), not the one they were taken on.
    expect(rest!.action.baseUpdatedAt).toBe(conflict!.action.baseUpdatedAt);
    expect(server.state.visit.notes.map((note) => note.text)).toEqual(['First', 'Second']);
    // The screen shows the applied notes and the waiting changes.
    const visit = await shown();
    expect(visit.notes.map((note) => note.text)).toEqual(['First', 'Second', 'After the conflict']);
    expect(visit.tasks.find((task) => task.id === 't-1')?.status).toBe('completed');

    await sync.keepMine(conflict!.seq!);
    expect(await sync.syncNow()).toEqual({ sent: 2, stoppedBy: undefined });
    expect(server.state.visit.title).toBe('Edited by the office');
    expect(server.state.visit.tasks.find((task) => task.id === 't-1')?.status).toBe('completed');
    expect(server.state.visit.notes.map((note) => note.text)).toEqual(['First', 'Second', 'After the conflict']);
    expect(await sync.waitingCount()).toBe(0);
  });

  it('marks a refusal in the middle of a batch as failed and sends the actions after it in the next batch', async () => {
    server.state.refuse.add('en-route');
    await sync.enqueue('wo-1', { kind: 'note', text: 'Before' });
    await sync.enqueue('wo-1', { kind: 'en-route' });
    await sync.enqueue('wo-1', { kind: 'note', text: 'After' });
    expect((await sync.syncNow()).sent).toBe(2);
    expect(server.state.batches).toEqual([3, 1]);
    const [failed] = await db.queue.toArray();
    expect(failed).toMatchObject({ state: 'failed', error: 'Refused on purpose' });
    expect(server.state.visit.notes.map((note) => note.text)).toEqual(['Before', 'After']);
  });

  it('keeps each batch under the server\'s body limit (signatures are large)', async () => {
    const signature = `data:image/png;base64,${'A'.repeat(399_000)}`;
    for (let index = 0; index < 3; index += 1) {
      await sync.enqueue('wo-1', { kind: 'complete', summary: `Done ${index}`, materials: [], signerName: null, signature, followUp: null });
    }
    expect((await sync.syncNow()).sent).toBe(3);
    expect(server.state.batches).toEqual([2, 1]);
  });

  it('uploads photos after the visit\'s actions, each once, retried after a lost answer', async () => {
    await sync.addPhoto('wo-1', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }), 'a.jpg');
    await sync.enqueue('wo-1', { kind: 'note', text: 'Photos attached' });
    await sync.addPhoto('wo-1', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe1])], { type: 'image/jpeg' }), 'b.jpg');
    expect(await sync.waitingCount()).toBe(3);

    server.state.mode = 'drop';
    expect((await sync.syncNow()).stoppedBy).toBe('network');
    server.state.mode = 'up';
    await sync.syncNow();
    // The note went first (applied, its answer lost, replayed), then the photos, each once.
    expect(server.state.received.map((request) => [request.kind, request.applied])).toEqual([
      ['note', true],
      ['note', false],
    ]);
    expect(server.state.photoKeys).toHaveLength(2);
    expect(server.state.visit.photos).toHaveLength(2);
    expect(await sync.waitingCount()).toBe(0);
    expect((await db.visits.get('wo-1'))!.visit.photos).toHaveLength(2);
  });

  it('never replaces a newer device copy with an older answer', async () => {
    await sync.enqueue('wo-1', { kind: 'note', text: 'New' });
    await sync.syncNow();
    const after = (await db.visits.get('wo-1'))!.visit.updatedAt;
    server.state.visit = { ...server.state.visit, updatedAt: '2026-11-25T11:00:00.000Z' };
    await sync.refresh();
    expect((await db.visits.get('wo-1'))!.visit.updatedAt).toBe(after);
  });

  it('keeps the photos\' thumbnails on the device once each, and forgets those no visit shows', async () => {
    await sync.addPhoto('wo-1', new Blob([new Uint8Array([0xff, 0xd8])], { type: 'image/jpeg' }), 'a.jpg');
    await sync.syncNow();
    expect(await sync.refresh()).toBe('ok');
    expect(await sync.cacheThumbnails()).toBe(1);
    expect(await sync.cacheThumbnails()).toBe(0);
    expect(server.state.thumbnailGets).toBe(1);
    const [kept] = await db.thumbnails.toArray();
    expect(kept!.type).toBe('image/webp');
    expect([...new Uint8Array(kept!.data)]).toEqual([1, 2, 3]);

    server.officeEdit({ photos: [] });
    await sync.refresh();
    await sync.cacheThumbnails();
    expect(await db.thumbnails.count()).toBe(0);
  });

  it("keeps a technician's waiting items on a shared phone until they sign in again, never sending them under another account", async () => {
    const others = async (technicianId: string) =>
      splitByTechnician(technicianId, { visits: await db.visits.toArray(), queue: await db.queue.toArray(), photos: await db.photos.toArray() }).othersWaiting;
    server.state.mode = 'down';
    await sync.enqueue('wo-1', { kind: 'note', text: "Sam's note" });
    await sync.addPhoto('wo-1', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'sam.png');

    // Sam's session ends; the office gives the job to Kim, who signs in on the same phone (a new page life).
    server.state.mode = 'up';
    server.state.technician = { id: 'tech-2', name: 'Kim', color: '#654321' };
    sync.forgetSignedIn();
    expect(await sync.syncNow()).toEqual({ sent: 0 });
    expect(server.state.received).toEqual([]);
    expect(server.state.photoKeys).toEqual([]);
    expect(await sync.waitingCount()).toBe(0);
    expect(await others('tech-2')).toEqual([{ technicianId: 'tech-1', name: 'Sam', count: 2 }]);

    // Kim's own note goes, under Kim; Sam's still waits.
    await sync.enqueue('wo-1', { kind: 'note', text: "Kim's note" });
    expect(await sync.waitingCount()).toBe(1);
    expect(await sync.syncNow()).toEqual({ sent: 1, stoppedBy: undefined });
    expect(server.state.sentAs).toEqual(["Kim: Kim's note"]);
    expect(await db.queue.count()).toBe(1);

    // Kim signs out: her copy goes, Sam's waiting items (and the visit they stand on) stay.
    await forgetTechnician(db);
    expect(await db.queue.count()).toBe(1);
    expect(await db.photos.count()).toBe(1);
    expect(await db.visits.get('wo-1')).toBeDefined();

    // Sam signs in again: his items go, as Sam.
    server.state.technician = { id: 'tech-1', name: 'Sam', color: '#123456' };
    sync.forgetSignedIn();
    expect(await sync.syncNow()).toEqual({ sent: 2, stoppedBy: undefined });
    expect(server.state.sentAs).toEqual(["Kim: Kim's note", "Sam: Sam's note"]);
    expect(server.state.photoKeys).toHaveLength(1);
    expect(await sync.waitingCount()).toBe(0);
    expect(await others('tech-1')).toEqual([]);
  });
});
