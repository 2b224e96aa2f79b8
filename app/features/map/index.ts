/** Public entry of map: the admin route loads it lazily (Leaflet needs window; decision 016-d, 019-l). */
export { ServiceMap } from './service-map.tsx';
