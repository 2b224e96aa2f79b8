import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { staffMessages, type StaffUser } from '#shared/auth.ts';
import { techMessages } from '#shared/tech.ts';
import { AppError } from '#server/errors.ts';
import type { AuthService } from '#server/modules/auth/index.ts';
import { isHttpsUrl } from './security.ts';

/**
 * The session cookie's name. On an https site (COMPANY_SITE_URL) the cookie is always Secure and
 * carries the __Host- prefix (`__Host-hvac_session`: Path=/, no Domain, so no sibling subdomain
 * can set or shadow it); on an http site (local development, the e2e runs) it keeps this name
 * without Secure, which a browser would not send back over http. Decision 018-b-session-cookie.
 */
export const sessionCookieName = 'hvac_session';
export const hostSessionCookieName = `__Host-${sessionCookieName}`;

export type SessionCookie = { name: string; secure: boolean };

/** The session cookie's name and Secure flag for a site URL: everything that reads the cookie uses this. */
export function sessionCookieFor(siteUrl: string): SessionCookie {
  const secure = isHttpsUrl(siteUrl);
  return { name: secure ? hostSessionCookieName : sessionCookieName, secure };
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCookie: SessionCookie;
  }
  interface FastifyRequest {
    staffUser: StaffUser | undefined;
    sessionId: string | undefined;
  }
  interface FastifyContextConfig {
    /**
     * An /api/admin route outside settings that only an administrator may call (decision 018-f):
     * `app.delete(url, { config: adminOnly }, handler)`. Read by the session guard below, nowhere else.
     */
    adminOnly?: boolean;
  }
}

/** The route option that makes an /api/admin route admin-only (see FastifyContextConfig.adminOnly). */
export const adminOnly = { adminOnly: true } as const;

export function readSessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[request.server.sessionCookie.name];
}

/** Secure on an https site even when the request reached us over http (TLS ended at a proxy). */
function cookieOptions(request: FastifyRequest) {
  const { secure } = request.server.sessionCookie;
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: secure || request.protocol === 'https' } as const;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(request.server.sessionCookie.name, token, { ...cookieOptions(request), expires: expiresAt });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(request.server.sessionCookie.name, cookieOptions(request));
}

function isUnder(url: string, prefix: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Whether a request is under a prefix, judged by the raw address AND by the route the router
 * matched: the router decodes percent-escapes (/api/%61dmin/customers reaches /api/admin/customers),
 * so the raw address alone is not enough.
 */
export function isRequestUnder(request: FastifyRequest, prefix: string): boolean {
  const route = request.routeOptions.url;
  return isUnder(request.url, prefix) || (route !== undefined && isUnder(route, prefix));
}

/** What needs an office staff session: /api/admin, and the API's OpenAPI document and reference page (decision 019-i). */
const staffOnlyPrefixes = ['/api/admin', '/api/openapi.json', '/api/docs'] as const;
/** The technician app's API (issue 19, decision 022-a): a technician's session, linked to a technician. */
export const techPrefix = '/api/tech';
const sessionPrefixes = [...staffOnlyPrefixes, techPrefix] as const;

/**
 * Every /api/admin request (and the API document and reference page) needs a live staff session: checked here, before routing, so that even
 * a path that does not exist answers 401 to a stranger and reveals nothing.
 */
export function registerSessionGuard(app: FastifyInstance, auth: AuthService, options: { siteUrl: string }): void {
  app.decorate('sessionCookie', sessionCookieFor(options.siteUrl));
  app.decorateRequest('staffUser', undefined);
  app.decorateRequest('sessionId', undefined);
  // The guard only sees /api/admin: a route elsewhere marked adminOnly would be open, so it cannot start.
  app.addHook('onRoute', (route) => {
    if (route.config?.adminOnly === true && !isUnder(route.url, '/api/admin')) {
      throw new Error(`${route.url} is marked adminOnly but is not under /api/admin, where the session guard enforces it`);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    const under = (prefix: string) => request.url.startsWith(prefix) || isRequestUnder(request, prefix);
    if (!sessionPrefixes.some(under)) return;
    const session = await auth.authenticate(readSessionToken(request));
    if (!session) {
      if (readSessionToken(request)) clearSessionCookie(request, reply);
      throw new AppError('UNAUTHENTICATED', 'Please sign in.');
    }
    request.staffUser = session.user;
    request.sessionId = session.sessionId;
    reply.header('cache-control', 'no-store');
    // Issue 19: the technician app's API is a technician's, linked to their technician record;
    // the back office (and its API document) is never a technician's, judged on both addresses.
    const isTechnician = session.user.role === 'technician';
    const forOffice = staffOnlyPrefixes.some(under);
    if (isTechnician && forOffice) throw new AppError('FORBIDDEN', techMessages.technicianOnlyInApp);
    if (under(techPrefix)) {
      if (!isTechnician || forOffice) throw new AppError('FORBIDDEN', techMessages.notTechnician);
      if (!session.user.technicianId) throw new AppError('FORBIDDEN', techMessages.noTechnicianLinked);
      return;
    }
    // The one role rule (issue 10, decision 018-f): everything under /api/admin/settings, and the
    // few routes elsewhere marked adminOnly in their options (deleting customers and photos).
    if (session.user.role === 'admin') return;
    if (isRequestUnder(request, '/api/admin/settings')) throw new AppError('FORBIDDEN', staffMessages.forbidden);
    if (request.routeOptions.config.adminOnly === true) throw new AppError('FORBIDDEN', staffMessages.adminOnly);
  });
}
