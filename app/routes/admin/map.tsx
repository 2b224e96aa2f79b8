import { lazy, Suspense } from 'react';
import { company } from '#client/lib/company.ts';

// Leaflet reads `window` when it is imported, and the build evaluates every route module to
// prerender the public pages: the map loads in the browser only, in its own chunk.
const ServiceMap = lazy(() => import('#client/features/map/index.ts').then((module) => ({ default: module.ServiceMap })));

export function meta() {
  return [{ title: `Service Map | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function MapRoute() {
  return (
    <Suspense
      fallback={
        <p role="status" className="p-8 text-center text-slate-600">
          Loading map...
        </p>
      }
    >
      <ServiceMap />
    </Suspense>
  );
}
