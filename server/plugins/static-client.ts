import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cspHeader, type CspExtras } from './security.ts';
import { preferredEncoding } from '#server/lib/compressed-json.ts';

type Encoding = ReturnType<typeof preferredEncoding>;
type Page = { variants: Record<Encoding, Buffer>; csp: string };
export type PageResolver = (urlPath: string) => Page | undefined;

const inlineScriptPattern = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** CSP for one HTML file: its own inline scripts (React Router's hydration data) by hash, nothing else. */
function pageCsp(html: string, extras: CspExtras): string {
  const hashes = [...html.matchAll(inlineScriptPattern)]
    .map((match) => match[1] ?? '')
    .filter((body) => body.length > 0)
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  return cspHeader([...new Set(hashes)], extras);
}

function htmlFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function normalisePath(urlPath: string): string {
  const trimmed = urlPath.split('?')[0]!.replace(/\/+$/, '');
  return (trimmed || '/').toLowerCase();
}

/**
 * Serves the built client: hashed assets with long caching, prerendered public pages by path
 * (case-insensitively: /heating and /Heating are one page), and the single-page-app shell for every
 * other path (the staff screens), which the client router then renders.
 */
export async function registerStaticClient(app: FastifyInstance, clientDir: string, csp: CspExtras = {}): Promise<PageResolver | undefined> {
  if (!fs.existsSync(path.join(clientDir, '__spa-fallback.html')) && !fs.existsSync(path.join(clientDir, 'index.html'))) {
    app.log.warn({ clientDir }, 'no built client found: run `npm run build` to serve the website');
    return undefined;
  }
  const pages = new Map<string, Page>();
  let fallback: Page | undefined;
  for (const file of htmlFiles(clientDir)) {
    const html = fs.readFileSync(file);
    const relative = path.relative(clientDir, file).split(path.sep).join('/');
    // The staff screens (the SPA shell) may show map tiles; the prerendered public pages never do.
    const page: Page = {
      // The build writes .br and .gz copies (scripts/compress-client.mjs); fall back to plain.
      variants: {
        identity: html,
        br: fs.existsSync(`${file}.br`) ? fs.readFileSync(`${file}.br`) : html,
        gzip: fs.existsSync(`${file}.gz`) ? fs.readFileSync(`${file}.gz`) : html,
      },
      // /tech's page is the shell with preloads (decision 022-d): a staff screen too.
      csp: pageCsp(html.toString('utf8'), relative === '__spa-fallback.html' || relative === 'tech/index.html' ? csp : {}),
    };
    if (relative === '__spa-fallback.html') fallback = page;
    else if (relative === 'index.html' || relative.endsWith('/index.html')) pages.set(normalisePath(`/${relative.slice(0, -'index.html'.length)}`), page);
  }
  fallback ??= pages.get('/');

  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: '/',
    index: false,
    // One route per built file; every other path (pages, screens) reaches the resolver below.
    wildcard: false,
    // HTML goes through the resolver, with its own CSP and no caching.
    globIgnore: ['**/*.html', '**/*.br', '**/*.gz'],
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      // The technician app's service worker and manifest (decision 022-b): checked on every load so
      // a release reaches the phones; the worker controls /tech (and /tech/...), above its folder.
      // (the file sent may be its precompressed copy, x.js.br or x.js.gz)
      const relative = path.relative(clientDir, filePath).split(path.sep).join('/').replace(/\.(br|gz)$/, '');
      if (relative === 'tech/sw.js' || relative === 'tech/manifest.webmanifest') {
        reply.header('cache-control', 'no-cache');
        if (relative === 'tech/sw.js') reply.header('service-worker-allowed', '/tech');
        return;
      }
      // Hashed build output never changes under its name; images and icons keep their names
      // across releases, so they are cached for a month and revalidated in the background.
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header(
        'cache-control',
        isHashedAsset ? 'public, max-age=31536000, immutable' : 'public, max-age=2592000, stale-while-revalidate=86400',
      );
    },
  });

  return (urlPath) => pages.get(normalisePath(urlPath)) ?? fallback;
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, page: Page): FastifyReply {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const body = page.variants[encoding];
  if (encoding !== 'identity' && body !== page.variants.identity) reply.header('content-encoding', encoding);
  return reply
    .status(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .header('content-security-policy', page.csp)
    .send(body);
}
