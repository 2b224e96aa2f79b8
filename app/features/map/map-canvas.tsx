import type L from 'leaflet';
import './map.css';
import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { MapContainer, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { mapDefaults } from '#shared/map.ts';
import { mapMaxZoom, mapRequestView, type MapBounds, type MapView } from '#shared/map-view.ts';
import type { MapFeature, MapPoint } from './map-points.ts';
import { ClusteredMarkers } from './map-markers.tsx';

export type MapPopup = { key: string; latitude: number; longitude: number; content: ReactNode };

type MapCanvasProps = {
  /** The server's clusters and single markers for the view asked. */
  features: readonly MapFeature[];
  /** The corners around every marker the filters keep (null: none), and the view and filters they
   * are of: the map fits to all markers once per key. */
  fit: { key: string; bounds: MapBounds | null } | undefined;
  /** The box and zoom to ask the server for, after each pan or zoom (and once at the start). */
  onViewChange: (view: MapView) => void;
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
export function MapCanvas({ features, fit, onViewChange, tiles, popup, onPopupClosed, onSelectPoint, onStackedPoints, onPickLocation, onTileError, label }: MapCanvasProps) {
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
      <ClusteredMarkers features={features} onSelectPoint={onSelectPoint} onStackedPoints={onStackedPoints} />
      <FitToPoints fit={fit} />
      <ReportView onViewChange={onViewChange} />
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
function FitToPoints({ fit }: { fit: { key: string; bounds: MapBounds | null } | undefined }) {
  const map = useMap();
  const fitted = useRef<string>(undefined);
  useEffect(() => {
    if (fit === undefined || fitted.current === fit.key) return;
    fitted.current = fit.key;
    if (fit.bounds) map.fitBounds(fit.bounds, { maxZoom: mapDefaults.maxFitZoom, padding: [mapDefaults.fitPaddingPx, mapDefaults.fitPaddingPx], animate: false });
    else map.setView(mapDefaults.center, mapDefaults.zoom, { animate: false });
  }, [map, fit]);
  return null;
}

/** Waits this long after a pan or zoom ends before asking (keyboard panning ends a move per key press). */
const viewChangeDelayMs = 150;

/**
 * Tells the screen which box and zoom to ask for (padded and snapped to tiles: small pans ask
 * nothing new): at once when the map is ready, then after each move, shortly after the last.
 */
function ReportView({ onViewChange }: { onViewChange: (view: MapView) => void }) {
  const map = useMap();
  const report = useRef(onViewChange);
  useEffect(() => {
    report.current = onViewChange;
  });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const now = () => {
      const bounds = map.getBounds();
      report.current(mapRequestView({ west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() }, map.getZoom()));
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(now, viewChangeDelayMs);
    };
    map.whenReady(now);
    map.on('moveend', later);
    return () => {
      clearTimeout(timer);
      map.off('moveend', later);
    };
  }, [map]);
  return null;
}
