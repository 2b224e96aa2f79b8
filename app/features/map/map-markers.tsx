import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { mapPerformanceMarks } from './api.ts';
import {
  buildPointIndex,
  clusterMaxZoom,
  clusterSize,
  isCluster,
  markerFills,
  visibleFeatures,
  type IndexedFeature,
  type MapPoint,
  type PointIndex,
} from './map-points.ts';

function markerIcon(point: MapPoint): L.DivIcon {
  const { fill, text } = markerFills[point.color];
  const count = point.activeWorkOrders > 0 ? String(point.activeWorkOrders) : '';
  return L.divIcon({
    className: 'map-marker',
    html: `<span class="map-marker-dot${point.fieldStep ? ` map-marker-field map-marker-${point.fieldStep}` : ''}" style="width:${point.size}px;height:${point.size}px;background:${fill};color:${text}">${count}</span>`,
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

const featureKey = (feature: IndexedFeature) => (isCluster(feature) ? `c${feature.properties.cluster_id}` : `p${feature.properties.kind}${feature.properties.id}`);

/**
 * The clusters and points in view as Leaflet markers, drawn again after every pan or zoom. Markers
 * still in view are kept (a focused marker keeps its focus); the others are removed.
 */
export function ClusteredMarkers({
  points,
  onSelectPoint,
  onStackedPoints,
}: {
  points: readonly MapPoint[];
  onSelectPoint: (point: MapPoint) => void;
  /** A cluster whose points share one spot (they cannot be told apart by zooming): list them. */
  onStackedPoints: (points: MapPoint[], total: number, at: { latitude: number; longitude: number }) => void;
}) {
  const map = useMap();
  const index = useMemo<PointIndex>(() => buildPointIndex(points), [points]);
  const carriedFocus = useRef<string | null>(null);
  const callbacks = useRef({ onSelectPoint, onStackedPoints });
  useEffect(() => {
    callbacks.current = { onSelectPoint, onStackedPoints };
  });

  useEffect(() => {
    const layer = L.layerGroup().addTo(map);
    const shown = new Map<string, L.Marker>();

    const openCluster = (clusterId: number, count: number, at: L.LatLng) => {
      const expansionZoom = index.getClusterExpansionZoom(clusterId);
      if (expansionZoom <= clusterMaxZoom) {
        map.setView(at, Math.max(expansionZoom, map.getZoom() + 1));
        return;
      }
      // Every point of the cluster is at (nearly) the same spot: zooming cannot separate them.
      const leaves = index.getLeaves(clusterId, 50).map((leaf) => leaf.properties);
      callbacks.current.onStackedPoints(leaves, count, { latitude: at.lat, longitude: at.lng });
    };

    const createMarker = (feature: IndexedFeature): L.Marker => {
      const [longitude, latitude] = feature.geometry.coordinates as [number, number];
      if (isCluster(feature)) {
        const { cluster_id: clusterId, point_count: count } = feature.properties;
        const marker = L.marker([latitude, longitude], { icon: clusterIcon(count), keyboard: true, title: `${count} markers: zoom in`, riseOnHover: true });
        onActivate(marker, () => openCluster(clusterId, count, marker.getLatLng()));
        return marker;
      }
      const point = feature.properties;
      const marker = L.marker([latitude, longitude], { icon: markerIcon(point), keyboard: true, title: point.label, riseOnHover: true });
      onActivate(marker, () => callbacks.current.onSelectPoint(point));
      return marker;
    };

    const draw = () => {
      const bounds = map.getBounds().pad(0.25);
      const features = visibleFeatures(index, { west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() }, map.getZoom());
      const wanted = new Set<string>();
      for (const feature of features) {
        const key = featureKey(feature);
        wanted.add(key);
        if (shown.has(key)) continue;
        const marker = createMarker(feature);
        shown.set(key, marker);
        layer.addLayer(marker);
        const element = marker.getElement();
        if (element) element.setAttribute('aria-label', marker.options.title ?? '');
      }
      for (const [key, marker] of shown) {
        if (wanted.has(key)) continue;
        layer.removeLayer(marker);
        shown.delete(key);
      }
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
    };

    draw();
    // New data (a live update) redraws every marker: the one that had the focus gets it back.
    const carried = carriedFocus.current;
    carriedFocus.current = null;
    if (carried) map.getContainer().querySelector<HTMLElement>(`.leaflet-marker-icon[aria-label="${CSS.escape(carried)}"]`)?.focus({ preventScroll: true });
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      const active = document.activeElement;
      carriedFocus.current = active instanceof HTMLElement && active.classList.contains('leaflet-marker-icon') ? active.getAttribute('aria-label') : null;
      layer.remove();
    };
  }, [map, index]);

  return null;
}
