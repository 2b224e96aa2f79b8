import { GeocodingSetup } from '#client/features/geocoding/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Geocoding Setup | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function GeocodingSetupRoute() {
  return <GeocodingSetup />;
}
