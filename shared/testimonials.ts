/**
 * Customer testimonials shown on /reviews, the home page and /AboutUs. Pure data.
 *
 * These are sample testimonials for the demo company. Before the site goes live, replace them with
 * real customers' words, used with their permission: publishing invented or unverifiable reviews is
 * prohibited (FTC rule on consumer reviews and testimonials, 16 CFR part 465). For the same reason
 * the site emits no Review or AggregateRating structured data (self-serving reviews are not eligible).
 */
export type Testimonial = {
  id: string;
  /** First name and last initial only. */
  name: string;
  /** One of the towns in shared/service-areas.ts. */
  town: string;
  rating: 1 | 2 | 3 | 4 | 5;
  service: string;
  quote: string;
};

export const testimonials: readonly Testimonial[] = [
  {
    id: 'karen-m',
    name: 'Karen M.',
    town: 'Bluffton',
    rating: 5,
    service: 'Emergency AC repair',
    quote:
      'Our upstairs system quit on a 97-degree Saturday in July. The technician called when he was twenty minutes out, found a failed capacitor, showed me the old part and had the house cooling again within the hour. The price was exactly what the office quoted on the phone.',
  },
  {
    id: 'david-r',
    name: 'David R.',
    town: 'Hilton Head Island',
    rating: 5,
    service: 'System replacement',
    quote:
      'Salt air had eaten the condensers at both of our rental villas. They quoted coated-coil units, scheduled the installs between guest check-ins and sent photos when the work was done. No cancelled bookings and no surprises on the invoice.',
  },
  {
    id: 'linda-t',
    name: 'Linda T.',
    town: 'Okatie',
    rating: 5,
    service: 'Maintenance plan',
    quote:
      'We have been on the Advanced plan for three years. The spring and fall visits are booked before I think of them, and when our heat pump acted up on a holiday weekend there was no overtime charge.',
  },
  {
    id: 'marcus-j',
    name: 'Marcus J.',
    town: 'Beaufort',
    rating: 5,
    service: 'Ductless mini-split installation',
    quote:
      'Our 1890s house downtown has no room for ductwork. They laid out three quiet ductless heads, ran the line sets where you would never notice them, and explained every step. The upstairs bedrooms are comfortable in August for the first time.',
  },
  {
    id: 'angela-p',
    name: 'Angela P.',
    town: 'Hardeeville',
    rating: 4,
    service: 'New-construction inspection',
    quote:
      'We had them check our builder-installed system before the first-year warranty ran out. They found a kinked drain line and a low refrigerant charge and wrote it up so the builder fixed both. It took a second visit to sort out the thermostat wiring, but they stuck with it.',
  },
  {
    id: 'robert-h',
    name: 'Robert H.',
    town: 'Ridgeland',
    rating: 5,
    service: 'No-heat emergency',
    quote:
      'During the January cold snap our heat pump stopped heating and the house was down to 52 degrees. We live well out of town, and they still got to us the same evening with the part already on the truck.',
  },
  {
    id: 'sarah-w',
    name: 'Sarah W.',
    town: 'Port Royal',
    rating: 5,
    service: 'Humidity control',
    quote:
      'Our cottage felt clammy even at 74 degrees. Instead of selling us a bigger unit, they set up the dehumidify mode, slowed the blower and sealed a leaky return in the crawl space. It finally feels dry inside, and the power bill went down.',
  },
  {
    id: 'james-k',
    name: 'James K.',
    town: 'Bluffton',
    rating: 5,
    service: 'Second opinion',
    quote:
      'Another company told us we needed a whole new system. They came out for a second opinion, found a burned contactor and a clogged condensate drain, and fixed both for a small fraction of the replacement quote.',
  },
  {
    id: 'patricia-l',
    name: 'Patricia L.',
    town: 'Hilton Head Island',
    rating: 4,
    service: 'Indoor air quality',
    quote:
      'They installed a media filter and a UV light for my husband\u2019s allergies, and we notice far less dust. Getting on the schedule took a few days longer than I hoped in peak season, but the crew was tidy and polite.',
  },
  {
    id: 'michael-s',
    name: 'Michael S.',
    town: 'Okatie',
    rating: 5,
    service: 'Dual-fuel upgrade',
    quote:
      'Our propane furnace was nearly 25 years old. They walked us through a dual-fuel heat pump using our actual propane bills and never pushed. One winter in, the propane tank has barely moved.',
  },
];

/** Average rating (one decimal) and how many testimonials carry each star count. */
export function ratingSummary(items: readonly Testimonial[] = testimonials) {
  const count = items.length;
  const average = count === 0 ? 0 : Math.round((items.reduce((sum, item) => sum + item.rating, 0) / count) * 10) / 10;
  const byStars = ([5, 4, 3, 2, 1] as const).map((stars) => ({
    stars,
    count: items.filter((item) => item.rating === stars).length,
  }));
  return { count, average, byStars };
}

/** The testimonials with these ids, in the order given. */
export function pickTestimonials(ids: readonly string[]): Testimonial[] {
  return ids.flatMap((id) => testimonials.filter((item) => item.id === id));
}
