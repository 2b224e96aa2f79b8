/** The towns the company serves (footer 'Areas We Serve', /service-areas, structured data). */
export type ServiceArea = { slug: string; name: string; county: string; zipCodes: readonly string[]; description: string };

export const serviceAreas: readonly ServiceArea[] = [
  {
    slug: 'bluffton',
    name: 'Bluffton',
    county: 'Beaufort County',
    zipCodes: ['29909', '29910'],
    description:
      'Our home base. From the cottages of Old Town along the May River to the newer neighborhoods off Buckwalter Parkway and the big planned communities, most Bluffton homes were built in the last twenty-five years, which means a lot of first-generation heat pumps now reaching replacement age. We know the builders, the attic layouts and the HOA rules for outdoor units.',
  },
  {
    slug: 'hilton-head-island',
    name: 'Hilton Head Island',
    county: 'Beaufort County',
    zipCodes: ['29926', '29928'],
    description:
      'Salt air is hard on condensers: coils and cabinets near the beach corrode years before they would inland. On the island we fit coated coils, stainless hardware and raised pads where flood rules require them, and we service the short-term rentals that cannot wait between guests, from Sea Pines to Port Royal Plantation.',
  },
  {
    slug: 'okatie',
    name: 'Okatie',
    county: 'Beaufort and Jasper Counties',
    zipCodes: ['29909'],
    description:
      'Okatie mixes large-lot country homes, horse properties and the active-adult communities along Highway 170 and Highway 278. Many homes here run two or three systems, and some still rely on propane or oil heat; we maintain both and help owners compare a dual-fuel heat pump when the old furnace is due.',
  },
  {
    slug: 'beaufort',
    name: 'Beaufort',
    county: 'Beaufort County',
    zipCodes: ['29902', '29906', '29907'],
    description:
      'The historic district has antebellum houses with no room for ductwork, so ductless mini-splits and small-duct high-velocity systems do most of the work there. Around Lady\'s Island and Burton we also look after military families\' homes near the Air Station and Parris Island, often on short notice at move-in.',
  },
  {
    slug: 'hardeeville',
    name: 'Hardeeville',
    county: 'Jasper County',
    zipCodes: ['29927'],
    description:
      'Hardeeville is growing fast, with new construction along I-95 and Highway 17 and a long-standing rural community around it. We handle builder warranty hand-offs, first-year tune-ups on new systems, and older mobile and manufactured homes that need the right packaged unit rather than a split system.',
  },
  {
    slug: 'ridgeland',
    name: 'Ridgeland',
    county: 'Jasper County',
    zipCodes: ['29936'],
    description:
      'The Jasper County seat has a main street of shops and offices alongside farmhouses on wells and long driveways. We service small commercial rooftop units in town, and we carry common parts on the truck for rural calls so a single visit usually finishes the job.',
  },
  {
    slug: 'port-royal',
    name: 'Port Royal',
    county: 'Beaufort County',
    zipCodes: ['29935'],
    description:
      'Port Royal\'s walkable grid of older cottages and new infill homes sits right on the water, so humidity control matters as much as temperature. We set up dehumidifying modes, variable-speed air handlers and crawl-space moisture checks that keep these homes comfortable and mold-free through long, muggy summers.',
  },
];
