import type L from 'leaflet';
import './map.css';
import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { MapContainer, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { mapDefaults } from '#shared/map.ts';
import { boundsOf, mapMaxZoom, type MapPoint } from './map-points.ts';
import { ClusteredMarkers } from './map-markers.tsx';

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
