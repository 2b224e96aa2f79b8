import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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

export async function registerSecurity(app: FastifyInstance, options: { isHttpsOnly: boolean; csp?: CspExtras }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options.csp) },
    // Cross-origin isolation headers would break map tiles from a tile server later on.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: options.isHttpsOnly ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || ['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
    // Browsers say where a request comes from; a state-changing call from another site is refused.
    // Clients that are not browsers send neither header and are judged by their session alone.
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed.');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && hostOf(origin) !== hostOf(`${request.protocol}://${request.host}`)) {
      throw new AppError('FORBIDDEN', 'Cross-site requests are not allowed.');
    }
  });
}

/** host[:port] as a URL normalises it (default ports dropped), or undefined for a malformed value. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
