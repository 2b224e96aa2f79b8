/**
 * The public pages: prerendered to HTML at build time, listed in sitemap.xml, matched
 * case-insensitively by the server. Paths are written as the spec writes them (canonical form).
 */
export const publicPages = [
  { path: '/', changeFrequency: 'weekly', priority: 1 },
  { path: '/AC', changeFrequency: 'monthly', priority: 0.9 },
  { path: '/Heating', changeFrequency: 'monthly', priority: 0.9 },
  { path: '/MaintenancePlan', changeFrequency: 'monthly', priority: 0.9 },
  { path: '/estimate', changeFrequency: 'monthly', priority: 0.9 },
  { path: '/BookingPage', changeFrequency: 'monthly', priority: 0.8 },
  { path: '/AboutUs', changeFrequency: 'monthly', priority: 0.7 },
  { path: '/service-areas', changeFrequency: 'monthly', priority: 0.7 },
  { path: '/reviews', changeFrequency: 'weekly', priority: 0.6 },
  { path: '/coupons', changeFrequency: 'weekly', priority: 0.6 },
  { path: '/privacy', changeFrequency: 'yearly', priority: 0.2 },
  { path: '/terms', changeFrequency: 'yearly', priority: 0.2 },
] as const;

export type PublicPagePath = (typeof publicPages)[number]['path'];
export const publicPagePaths: readonly PublicPagePath[] = publicPages.map((page) => page.path);
