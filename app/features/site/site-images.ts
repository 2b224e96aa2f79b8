/**
 * The site's raster artwork, rendered by scripts/build-images.mjs from assets/images-src/*.svg into
 * public/images/{name}-{width}.{avif,webp}. Keep `widths` in step with that script.
 * `width`/`height` give the intrinsic ratio, so the browser reserves the space before the file loads.
 */
export type SiteImage = { name: string; width: number; height: number; widths: readonly number[] };

export const siteImages = {
  hero: { name: 'hero-lowcountry', width: 1600, height: 900, widths: [480, 960, 1600] },
  van: { name: 'technician-van', width: 960, height: 720, widths: [480, 960] },
  condenser: { name: 'outdoor-condenser', width: 960, height: 720, widths: [480, 960] },
  heating: { name: 'heating-system', width: 960, height: 720, widths: [480, 960] },
  thermostat: { name: 'thermostat', width: 960, height: 720, widths: [480, 960] },
} as const satisfies Record<string, SiteImage>;
