import type { MetaDescriptor } from 'react-router';
import { acceptedPayments } from '#shared/business.ts';
import { oneLineAddress, openingHoursSpecification } from '#shared/company-profile.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import { company } from './company.ts';

/**
 * Everything a public page tells search engines and link previews: a unique title and
 * description, the canonical address, Open Graph and Twitter cards. `path` is the canonical path.
 */
export function pageMeta({ title, description, path }: { title: string; description: string; path: string }): MetaDescriptor[] {
  const url = `${company.siteUrl}${path === '/' ? '/' : path}`;
  const image = `${company.siteUrl}/images/og-card.jpg`;
  return [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: company.name },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: image },
    { property: 'og:image:width', content: '1200' },
    { property: 'og:image:height', content: '630' },
    { property: 'og:locale', content: 'en_US' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    { 'script:ld+json': businessStructuredData() },
  ];
}

/** schema.org HVACBusiness: who we are, where, when open, which towns we serve. */
export function businessStructuredData() {
  const sameAs = [company.social.facebook, company.social.instagram, company.social.google].filter(Boolean);
  return {
    '@context': 'https://schema.org',
    '@type': 'HVACBusiness',
    '@id': `${company.siteUrl}/#business`,
    name: company.name,
    url: `${company.siteUrl}/`,
    telephone: company.phone,
    email: company.email,
    image: `${company.siteUrl}/images/og-card.jpg`,
    logo: `${company.siteUrl}/favicon.svg`,
    priceRange: '$$',
    address: {
      '@type': 'PostalAddress',
      streetAddress: company.address.street,
      addressLocality: company.address.city,
      addressRegion: company.address.state,
      postalCode: company.address.zip,
      addressCountry: 'US',
    },
    geo: { '@type': 'GeoCoordinates', latitude: company.geo.latitude, longitude: company.geo.longitude },
    openingHoursSpecification: company.openingHours.map(openingHoursSpecification),
    areaServed: serviceAreas.map((area) => ({ '@type': 'City', name: `${area.name}, SC` })),
    paymentAccepted: acceptedPayments.join(', '),
    hasMap: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(oneLineAddress(company.address))}`,
    ...(sameAs.length > 0 ? { sameAs } : {}),
  };
}
