/**
 * The map's clustering thread (decision 023-c): parsing a view's marker set (megabytes of JSON at
 * 20,000 customers), loading its supercluster index and walking it for a box take tens to hundreds
 * of milliseconds, which would stall every other request on the event loop. Sets are kept here,
 * per kind, in the order they were loaded, as many as the service keeps (it loads them in the same
 * order, so every set it holds is here).
 */
import { parentPort } from 'node:worker_threads';
import type { MapCustomer, MapProperty } from '#shared/map.ts';
import { buildMarkerSet, viewAnswer, type MarkerSet } from './map-clusters.ts';
import { markerSetLimits, type ClusterReply, type ClusterRequest, type MarkerKind } from './map-cluster-protocol.ts';

type Whole = { properties?: MapProperty[]; customers?: MapCustomer[]; total: number; withActiveWorkOrders: number };

const sets = new Map<number, { kind: MarkerKind; set: MarkerSet<MapProperty | MapCustomer> }>();

function load(set: number, kind: MarkerKind, text: string): void {
  const whole = JSON.parse(text) as Whole;
  const items = (kind === 'properties' ? whole.properties : whole.customers) ?? [];
  const header = kind === 'properties' ? `"withActiveWorkOrders":${whole.withActiveWorkOrders},"total":${whole.total}` : `"total":${whole.total},"withActiveWorkOrders":${whole.withActiveWorkOrders}`;
  sets.set(set, { kind, set: buildMarkerSet<MapProperty | MapCustomer>(items, header) });
  const ofKind = [...sets].filter(([, entry]) => entry.kind === kind);
  for (const [id] of ofKind.slice(0, Math.max(0, ofKind.length - markerSetLimits[kind]))) sets.delete(id);
}

parentPort!.on('message', (request: ClusterRequest) => {
  let reply: ClusterReply;
  try {
    if (request.type === 'load') {
      load(request.set, request.kind, request.text);
      reply = { id: request.id };
    } else {
      const entry = sets.get(request.set);
      reply = entry ? { id: request.id, answer: viewAnswer(entry.set, entry.kind, request.view) } : { id: request.id, error: `marker set ${request.set} is no longer kept` };
    }
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
