/**
 * The map's clustering thread (decision 023-c): parsing a view's marker set (megabytes of JSON at
 * 20,000 customers), loading its supercluster index and walking it for a box take tens to hundreds
 * of milliseconds, which would stall every other request on the event loop. Sets are kept here
 * until the service releases them (it drops its sets at every commit, decision 024-b), and never
 * more per kind than the service keeps, in the order they were loaded.
 */
import { parentPort } from 'node:worker_threads';
import type { MapCustomer, MapProperty } from '#shared/map.ts';
import { buildMarkerSet, viewAnswer, type MarkerSet } from './map-clusters.ts';
import { markerSetLimits, type ClusterReply, type ClusterRequest, type MarkerKind } from './map-cluster-protocol.ts';

const sets = new Map<number, { kind: MarkerKind; set: MarkerSet<MapProperty | MapCustomer> }>();

function load(request: Extract<ClusterRequest, { type: 'load' }>): void {
  const { set, kind, total, withActiveWorkOrders } = request;
  const items = request.items.map((item) => JSON.parse(item) as MapProperty | MapCustomer);
  const header = kind === 'properties' ? `"withActiveWorkOrders":${withActiveWorkOrders},"total":${total}` : `"total":${total},"withActiveWorkOrders":${withActiveWorkOrders}`;
  sets.set(set, { kind, set: buildMarkerSet<MapProperty | MapCustomer>(items, header) });
  const ofKind = [...sets].filter(([, entry]) => entry.kind === kind);
  for (const [id] of ofKind.slice(0, Math.max(0, ofKind.length - markerSetLimits[kind]))) sets.delete(id);
}

parentPort!.on('message', (request: ClusterRequest) => {
  let reply: ClusterReply;
  try {
    if (request.type === 'load') {
      load(request);
      reply = { id: request.id };
    } else if (request.type === 'release') {
      sets.delete(request.set);
      reply = { id: request.id };
    } else {
      const entry = sets.get(request.set);
      reply = entry ? { id: request.id, answer: viewAnswer(entry.set, entry.kind, request.view) } : { id: request.id, error: `marker set ${request.set} is no longer kept`, gone: true };
    }
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
