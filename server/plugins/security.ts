import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#server/errors.ts';

/**
 * Security headers on every response and an Origin check on every state-changing API call.
 * HTML pages get their own CSP (with the hashes of their inline scripts) from static-client.ts;
 * this default is for everything else.
 */
export const baseCspDirectives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'script-src': ["'self'"],
  // The technician app's service worker (/tech/sw.js) and web app manifest (decision 022-b).
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
} as const;

/** Sources added to the base policy: the map's tile server for images (see tileImageSource). */
export type CspExtras = { imageSources?: readonly string[] };

function cspDirectives(extras: CspExtras = {}): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(baseCspDirectives).map(([name, values]) => [name, [...values, ...(name === 'img-src' ? (extras.imageSources ?? []) : [])]]),
  );
}

export function cspHeader(extraScriptSources: string[] = [], extras: CspExtras = {}): string {
  return Object.entries(cspDirectives(extras))
    .map(([name, values]) => `${name} ${[...values, ...(name === 'script-src' ? extraScriptSources : [])].join(' ')}`)
    .join('; ');
}

/**
 * The CSP img-src source that admits a Leaflet tile URL template: its origin, with a '*' for a
 * templated host label ('https://{s}.tile.example.org/...' -> 'https://*.tile.example.org'; CSP
 * allows a wildcard only as the leftmost label, so everything up to the templated label becomes
 * '*'). A path template (tiles from this server) needs nothing beyond 'self': undefined.
 */
export function tileImageSource(tileUrl: string): string | undefined {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl);
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  const [host, port] = splitPort(match[2]!.toLowerCase());
  const labels = host.split('.');
  const lastTemplated = labels.findLastIndex((label) => /[{}]/.test(label));
  const cspHost = lastTemplated < 0 ? host : ['*', ...labels.slice(lastTemplated + 1)].join('.');
  return `${scheme}://${cspHost}${port ? `:${port}` : ''}`;
}

function splitPort(authority: string): [string, string | undefined] {
  const withoutUser = authority.slice(authority.lastIndexOf('@') + 1);
  const portMatch = /:(\d+)$/.exec(withoutUser);
  return portMatch ? [withoutUser.slice(0, portMatch.index), portMatch[1]] : [withoutUser, undefined];
}

/** Whether an address is https (the site URL: HSTS, the Secure __Host- session cookie). */
export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/** scheme://host[:port] as a URL normalises it (default ports dropped), or undefined for a malformed or opaque value. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser's Origin may change something here (decision 018-b-origin-check): the site
 * URL's origin, or the request's own scheme and host (the scheme and host a trusted proxy
 * forwarded, else the socket's). Scheme, host and port all count. On an https site an http origin
 * is never accepted, whatever the request looked like on its way in.
 */
export function isAllowedOrigin(origin: string, request: FastifyRequest, siteUrl: string): boolean {
  const candidate = originOf(origin);
  if (candidate === undefined) return false;
  if (candidate === originOf(siteUrl)) return true;
  if (isHttpsUrl(siteUrl) && !candidate.startsWith('https://')) return false;
  return candidate === originOf(`${request.protocol}://${request.host}`);
}

export async function registerSecurity(app: FastifyInstance, options: { siteUrl: string; csp?: CspExtras }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options.csp) },
    // Cross-origin isolation headers would break map tiles from a tile server later on.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: isHttpsUrl(options.siteUrl) ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  // Every state-changing request, whatever its path: the router decodes percent-escapes
  // (/%61pi/admin reaches /api/admin), so a check on the raw address could be walked around, and
  // no path of this server takes a cross-site write.
  app.addHook('onRequest', async (request) => {
    if (safeMethods.has(request.method)) return;
    // Browsers say where a request comes from; a state-changing call from another site is refused.
    // Clients that are not browsers send neither header and are judged by their session alone.
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed.');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, request, options.siteUrl)) {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed.');
    }
  });
}
