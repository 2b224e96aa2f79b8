import L from 'leaflet';
import './map.css';
import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { MapContainer, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { mapDefaults } from '#shared/map.ts';
import { mapPerformanceMarks } from './api.ts';
import {
  boundsOf,
  buildPointIndex,
  clusterMaxZoom,
  clusterSize,
  isCluster,
  mapMaxZoom,
  markerFills,
  visibleFeatures,
  type IndexedFeature,
  type MapPoint,
  type PointIndex,
} from './map-points.ts';

export type MapPopup = { key: string; latitude: number; longitude: number; content: ReactNode };

type MapCanvasProps = {
  points: readonly MapPoint[];
  /** The view and filters the points answer; the map fits to all markers once per key. */
  fitKey: string | undefined;
  tiles: { tileUrl: string; attribution: string } | undefined;
  popup: MapPopup | undefined;
  onPopupClosed: (key: string) => void;
  onSelectPoint: (point: MapPoint) => void;
  /** A cluster whose points share one spot (they cannot be told apart by zooming): list them. */
  onStackedPoints: (points: MapPoint[], total: number, at: { latitude: number; longitude: number }) => void;
  /** Pin mode: a click on the map picks this spot. */
  onPickLocation?: (at: { latitude: number; longitude: number }) => void;
  onTileError: () => void;
  /** Text read by screen readers for the map region. */
  label: string;
};

/**
 * The Leaflet map: background tiles from the configured server (markers work without them), and
 * the clustered markers. Only the clusters and points in view are on the page, so 20,000
 * customers stay interactive.
 */
export function MapCanvas({ points, fitKey, tiles, popup, onPopupClosed, onSelectPoint, onStackedPoints, onPickLocation, onTileError, label }: MapCanvasProps) {
  const position = useMemo<[number, number] | undefined>(() => (popup ? [popup.latitude, popup.longitude] : undefined), [popup?.latitude, popup?.longitude]); // eslint-disable-line react-hooks/exhaustive-deps
  const popupRef = useRef<L.Popup>(null);
  // react-leaflet lays the popup out again (and pans it into view) whenever its child changes: the
  // child changes only with the content, so a live update's render cannot move the map under the
  // user's pointer. A change of the content's size (its work orders arrive) lays it out too.
  const content = popup?.content;
  const popupChild = useMemo(() => <PopupFocus popupRef={popupRef}>{content}</PopupFocus>, [content]);

  return (
    <MapContainer
      center={mapDefaults.center}
      zoom={mapDefaults.zoom}
      maxZoom={mapMaxZoom}
      className="size-full"
      // The map itself is keyboard-pannable (arrow keys, +/-); its markers are tab stops.
      keyboard
    >
      <ContainerAttributes label={label} isPinMode={Boolean(onPickLocation)} />
      <FollowContainerSize />
      {tiles ? <TileLayer url={tiles.tileUrl} attribution={tiles.attribution} maxZoom={mapMaxZoom} eventHandlers={{ tileerror: onTileError }} /> : null}
      <ClusteredMarkers points={points} onSelectPoint={onSelectPoint} onStackedPoints={onStackedPoints} />
      <FitToPoints points={points} fitKey={fitKey} />
      {onPickLocation ? <PickLocation onPick={onPickLocation} /> : null}
      {popup && position ? (
        <Popup
          key={popup.key}
          ref={popupRef}
          position={position}
          maxWidth={340}
          minWidth={240}
          autoPanPadding={[24, 24]}
          eventHandlers={{ remove: () => onPopupClosed(popup.key) }}
        >
          {popupChild}
        </Popup>
      ) : null}
    </MapContainer>
  );
}

/**
 * Focus moves into a popup when it opens (from a click or Enter on a marker); Escape closes it and
 * focus goes back to where it was (the marker). A change of the content's size lays the popup out again.
 */
function PopupFocus({ children, popupRef }: { children: ReactNode; popupRef: RefObject<L.Popup | null> }) {
  const map = useMap();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const content = ref.current;
    if (!content) return;
    let size = '';
    const observer = new ResizeObserver(([entry]) => {
      const next = entry ? `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}` : '';
      if (next === size) return;
      size = next;
      if (popupRef.current?.isOpen()) popupRef.current.update();
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, [popupRef]);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const openerLabel = opener?.getAttribute('aria-label');
    ref.current?.focus({ preventScroll: true });
    const container = ref.current;
    return () => {
      if (document.activeElement && document.activeElement !== document.body && !container?.contains(document.activeElement)) return;
      // A live update may have redrawn the markers meanwhile: the same marker is found by its name.
      const target = opener?.isConnected
        ? opener
        : openerLabel
          ? map.getContainer().querySelector<HTMLElement>(`.leaflet-marker-icon[aria-label="${CSS.escape(openerLabel)}"]`)
          : null;
      target?.focus({ preventScroll: true });
    };
  }, [map]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="focus:outline-none"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        map.closePopup();
      }}
    >
      {children}
    </div>
  );
}

/** The map's box changes with the sidebar, the window and a phone's rotation: Leaflet is told, so markers and clicks line up. */
function FollowContainerSize() {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

/** MapContainer takes its element's attributes once: these change with the view and pin mode. */
function ContainerAttributes({ label, isPinMode }: { label: string; isPinMode: boolean }) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute('role', 'region');
    container.setAttribute('aria-label', label);
    container.classList.toggle('map-pin-mode', isPinMode);
  }, [map, label, isPinMode]);
  return null;
}

function PickLocation({ onPick }: { onPick: (at: { latitude: number; longitude: number }) => void }) {
  useMapEvents({ click: (event) => onPick({ latitude: event.latlng.lat, longitude: event.latlng.lng }) });
  return null;
}

/** Fits to every marker (at most zoom 16) when a view or filter's answer first arrives; the default centre when there are none. */
function FitToPoints({ points, fitKey }: { points: readonly MapPoint[]; fitKey: string | undefined }) {
  const map = useMap();
  const fitted = useRef<string>(undefined);
  useEffect(() => {
    if (fitKey === undefined || fitted.current === fitKey) return;
    fitted.current = fitKey;
    const bounds = boundsOf(points);
    if (bounds) map.fitBounds(bounds, { maxZoom: mapDefaults.maxFitZoom, padding: [32, 32], animate: false });
    else map.setView(mapDefaults.center, mapDefaults.zoom, { animate: false });
  }, [map, points, fitKey]);
  return null;
}

function markerIcon(point: MapPoint): L.DivIcon {
  const { fill, text } = markerFills[point.color];
  const count = point.activeWorkOrders > 0 ? String(point.activeWorkOrders) : '';
  return L.divIcon({
    className: 'map-marker',
    html: `<span class="map-marker-dot" style="width:${point.size}px;height:${point.size}px;background:${fill};color:${text}">${count}</span>`,
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
function ClusteredMarkers({
  points,
  onSelectPoint,
  onStackedPoints,
}: {
  points: readonly MapPoint[];
  onSelectPoint: MapCanvasProps['onSelectPoint'];
  onStackedPoints: MapCanvasProps['onStackedPoints'];
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
