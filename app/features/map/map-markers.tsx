import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { mapPerformanceMarks } from './api.ts';
import { clusterMaxZoom } from '#shared/map-view.ts';
import { clusterSize, featureKey, markerFills, type MapFeature, type MapPoint } from './map-points.ts';

function markerIcon(point: MapPoint): L.DivIcon {
  const { fill, text } = markerFills[point.color];
  const count = point.activeWorkOrders > 0 ? String(point.activeWorkOrders) : '';
  return L.divIcon({
    className: 'map-marker',
    html: `<span class="map-marker-dot${point.fieldStep ? ` map-marker-field map-marker-${point.fieldStep}` : ''}${point.isMember ? ' map-marker-member' : ''}" style="width:${point.size}px;height:${point.size}px;background:${fill};color:${text}">${count}</span>`,
    iconSize: [point.size, point.size],
    iconAnchor: [point.size / 2, point.size / 2],
    popupAnchor: [0, -point.size / 2],
  });
}

function clusterIcon(count: number): L.DivIcon {
  const size = clusterSize(count);
  const shown = count >= 10_000 ? `${Math.round(count / 1000)}k` : count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
  return L.divIcon({
    className: 'map-marker',
    html: `<span class="map-cluster" style="width:${size}px;height:${size}px">${shown}</span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/** A click, or Enter or Space on the focused marker (Leaflet 1.9 makes markers tab stops but fires only 'keypress'). */
function onActivate(marker: L.Marker, action: () => void) {
  marker.on('click', action);
  marker.on('keypress', (event) => {
    const key = (event as L.LeafletKeyboardEvent).originalEvent.key;
    if (key !== 'Enter' && key !== ' ') return;
    event.originalEvent.preventDefault();
    action();
  });
}

/**
 * The server's clusters and single markers for the view (decision 023-c) as Leaflet markers. A new
 * answer (after a pan, a zoom or a live update) changes only what differs: markers it still has
 * stay as they are (a focused one keeps its focus, nothing flickers), the others are removed; a
 * focused marker that was replaced (its count changed) gets the focus back by its name.
 */
export function ClusteredMarkers({
  features,
  onSelectPoint,
  onStackedPoints,
}: {
  features: readonly MapFeature[];
  onSelectPoint: (point: MapPoint) => void;
  /** A cluster whose points share one spot (they cannot be told apart by zooming): list them. */
  onStackedPoints: (points: MapPoint[], total: number, at: { latitude: number; longitude: number }) => void;
}) {
  const map = useMap();
  const callbacks = useRef({ onSelectPoint, onStackedPoints });
  useEffect(() => {
    callbacks.current = { onSelectPoint, onStackedPoints };
  });
  const layer = useRef<{ group: L.LayerGroup; shown: Map<string, L.Marker> }>(undefined);

  useEffect(() => {
    const group = L.layerGroup().addTo(map);
    layer.current = { group, shown: new Map() };
    return () => {
      group.remove();
      layer.current = undefined;
    };
  }, [map]);

  useEffect(() => {
    const current = layer.current;
    if (!current) return;
    const { group, shown } = current;

    const openCluster = (feature: Extract<MapFeature, { kind: 'cluster' }>, at: L.LatLng) => {
      if (feature.expansionZoom <= clusterMaxZoom) {
        map.setView(at, Math.max(feature.expansionZoom, map.getZoom() + 1));
        return;
      }
      // Every point of the cluster is at (nearly) the same spot: zooming cannot separate them.
      callbacks.current.onStackedPoints(feature.stacked ?? [], feature.count, { latitude: at.lat, longitude: at.lng });
    };

    const createMarker = (feature: MapFeature): L.Marker => {
      if (feature.kind === 'cluster') {
        // Its name says what Enter does: zoom in, or list the markers that share one spot.
        const title = feature.expansionZoom <= clusterMaxZoom ? `${feature.count} markers: zoom in` : `${feature.count} at one spot: list them`;
        const marker = L.marker([feature.latitude, feature.longitude], { icon: clusterIcon(feature.count), keyboard: true, title, riseOnHover: true });
        onActivate(marker, () => openCluster(feature, marker.getLatLng()));
        return marker;
      }
      const { point } = feature;
      const marker = L.marker([point.latitude, point.longitude], { icon: markerIcon(point), keyboard: true, title: point.label, riseOnHover: true });
      onActivate(marker, () => callbacks.current.onSelectPoint(point));
      return marker;
    };

    const wanted = new Map(features.map((feature) => [featureKey(feature), feature]));
    let focusedLabel: string | null = null;
    for (const [key, marker] of shown) {
      if (wanted.has(key)) continue;
      const element = marker.getElement();
      if (element && element === document.activeElement) focusedLabel = element.getAttribute('aria-label');
      group.removeLayer(marker);
      shown.delete(key);
    }
    for (const [key, feature] of wanted) {
      if (shown.has(key)) continue;
      const marker = createMarker(feature);
      shown.set(key, marker);
      group.addLayer(marker);
      const element = marker.getElement();
      if (element) element.setAttribute('aria-label', marker.options.title ?? '');
    }
    if (focusedLabel) map.getContainer().querySelector<HTMLElement>(`.leaflet-marker-icon[aria-label="${CSS.escape(focusedLabel)}"]`)?.focus({ preventScroll: true });
    const container = map.getContainer();
    container.dataset.markers = String(shown.size);
    // The markers are painted (the next frame) and the main thread takes its next task (a click
    // would be handled): what bench/map.ts times from the data's arrival.
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (performance.getEntriesByName(mapPerformanceMarks.dataReady).length > 0 && performance.getEntriesByName(mapPerformanceMarks.markersReady).length === 0) {
          performance.mark(mapPerformanceMarks.markersReady);
        }
      }, 0),
    );
  }, [map, features]);

  return null;
}
