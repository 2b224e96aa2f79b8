import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { staffMessages, type StaffUser } from '#shared/auth.ts';
import { AppError } from '#server/errors.ts';
import type { AuthService } from '#server/modules/auth/auth.service.ts';

export const sessionCookieName = 'hvac_session';

declare module 'fastify' {
  interface FastifyRequest {
    staffUser: StaffUser | undefined;
    sessionId: string | undefined;
  }
}

export function readSessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName];
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(sessionCookieName, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: expiresAt,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
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

/**
 * Every /api/admin request needs a live staff session: checked here, before routing, so that even
 * a path that does not exist answers 401 to a stranger and reveals nothing.
 */
export function registerSessionGuard(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('staffUser', undefined);
  app.decorateRequest('sessionId', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/admin') && !isRequestUnder(request, '/api/admin')) return;
    const session = await auth.authenticate(readSessionToken(request));
    if (!session) {
      if (readSessionToken(request)) clearSessionCookie(request, reply);
      throw new AppError('UNAUTHENTICATED', 'Please sign in.');
    }
    request.staffUser = session.user;
    request.sessionId = session.sessionId;
    reply.header('cache-control', 'no-store');
    // The one role rule (issue 10): everything admin-only lives under /api/admin/settings.
    if (isRequestUnder(request, '/api/admin/settings') && session.user.role !== 'admin') {
      throw new AppError('FORBIDDEN', staffMessages.forbidden);
    }
  });
}
