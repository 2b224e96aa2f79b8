// Renders the site's artwork (SVG sources in assets/images-src/) into public/images/: AVIF and WebP
// at responsive widths, plus the Open Graph card (og-card.jpg, 1200x630). The generated files are
// committed, so the app build does not need to run this; run it again after editing the artwork:
//
//   node scripts/build-images.mjs
//
// Keep the widths here in step with app/features/site/site-images.ts (the <picture> markup).
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'assets/images-src');
const outputDir = path.join(root, 'public/images');

/** name: SVG file stem; widths: output widths in px (the height follows the artwork's ratio). */
/** opaque: a full-bleed scene (no transparency needed); the spot illustrations keep theirs. */
const images = [
  { name: 'hero-lowcountry', widths: [480, 960, 1600], opaque: true },
  { name: 'technician-van', widths: [480, 960] },
  { name: 'outdoor-condenser', widths: [480, 960] },
  { name: 'heating-system', widths: [480, 960] },
  { name: 'thermostat', widths: [480, 960] },
];

const avifOptions = { quality: 52, effort: 7, chromaSubsampling: '4:2:0' };
const webpOptions = { quality: 74, effort: 6, smartSubsample: true };

/** Renders an SVG at least `width` px wide (vector: no upscaling blur), then resizes exactly. */
async function rasterise(svgPath, width, opaque = true) {
  const metadata = await sharp(svgPath).metadata();
  const density = Math.max(72, Math.ceil((72 * width) / (metadata.width ?? width)));
  const image = sharp(svgPath, { density }).resize({ width });
  return opaque ? image.flatten({ background: '#ffffff' }) : image;
}

async function buildResponsive({ name, widths, opaque = false }) {
  const svgPath = path.join(sourceDir, `${name}.svg`);
  const written = [];
  for (const width of widths) {
    const avifPath = path.join(outputDir, `${name}-${width}.avif`);
    const webpPath = path.join(outputDir, `${name}-${width}.webp`);
    await (await rasterise(svgPath, width, opaque)).avif(avifOptions).toFile(avifPath);
    await (await rasterise(svgPath, width, opaque)).webp(webpOptions).toFile(webpPath);
    written.push(avifPath, webpPath);
  }
  return written;
}

function escapeXml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The link-preview card: the hero scene with a navy wash and the headline. It names the service and
 * the area, not the company: the company name is configuration (og:site_name carries it).
 */
async function buildOgCard() {
  const width = 1200;
  const height = 630;
  const scene = await (await rasterise(path.join(sourceDir, 'hero-lowcountry.svg'), width)).png().toBuffer();
  const font = 'Liberation Sans, Arial, Helvetica, sans-serif';
  const overlay = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs>
      <linearGradient id="wash" x1="0" y1="0" x2="1" y2="0">
        <stop offset="0" stop-color="#0b1435" stop-opacity="0.92"/>
        <stop offset="0.55" stop-color="#0b1435" stop-opacity="0.6"/>
        <stop offset="1" stop-color="#0b1435" stop-opacity="0"/>
      </linearGradient>
    </defs>
    <rect width="${width}" height="${height}" fill="url(#wash)"/>
    <g transform="translate(72 92)">
      <rect width="72" height="72" rx="16" fill="#1e3a8a"/>
      <path d="M36 12c-6.8 11.2-15.8 18-15.8 30.4a15.8 15.8 0 0 0 31.6 0C51.8 30 42.8 23.2 36 12z" fill="#f97316"/>
      <path d="M36 34c-3.4 5.6-6.8 7.9-6.8 13.5a6.8 6.8 0 0 0 13.6 0c0-5.6-3.4-7.9-6.8-13.5z" fill="#fff"/>
    </g>
    <text x="72" y="262" font-family="${font}" font-size="70" font-weight="700" fill="#ffffff">${escapeXml('Heating & Cooling')}</text>
    <text x="72" y="342" font-family="${font}" font-size="70" font-weight="700" fill="#ffffff">Services</text>
    <rect x="72" y="378" width="120" height="8" rx="4" fill="#f97316"/>
    <text x="72" y="440" font-family="${font}" font-size="34" fill="#e2e8f0">${escapeXml('Bluffton · Hilton Head Island · the Low Country')}</text>
    <text x="72" y="500" font-family="${font}" font-size="28" fill="#fdba74" font-weight="700">${escapeXml('Installation · Repair · Maintenance · 24/7 emergency service')}</text>
  </svg>`;
  const outPath = path.join(outputDir, 'og-card.jpg');
  await sharp(scene)
    .extract({ left: 0, top: 20, width, height })
    .composite([{ input: Buffer.from(overlay) }])
    .jpeg({ quality: 80, mozjpeg: true, progressive: true })
    .toFile(outPath);
  return [outPath];
}

await fs.mkdir(outputDir, { recursive: true });
const written = [];
for (const image of images) written.push(...(await buildResponsive(image)));
written.push(...(await buildOgCard()));

let total = 0;
for (const file of written) {
  const { size } = await fs.stat(file);
  total += size;
  console.log(`${path.relative(root, file).padEnd(44)} ${(size / 1024).toFixed(1).padStart(7)} KB`);
}
console.log(`${'total'.padEnd(44)} ${(total / 1024).toFixed(1).padStart(7)} KB`);
