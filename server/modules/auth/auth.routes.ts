import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noContentSchema } from '#shared/api.ts';
import { homePathFor, loginSchema, sessionResponseSchema } from '#shared/auth.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '#server/plugins/session.ts';
import type { AuthService } from './auth.service.ts';
import { sendNoContent } from '#server/lib/no-content.ts';

export async function authRoutes(app: FastifyInstance, options: { auth: AuthService; loginLimitPerMinute: number }): Promise<void> {
  const { auth } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/auth/login',
    {
      schema: { body: loginSchema, response: { 200: sessionResponseSchema } },
      config: { rateLimit: { max: options.loginLimitPerMinute, timeWindow: '1 minute' } },
      bodyLimit: 4096,
    },
    async (request, reply) => {
      const { token, user, expiresAt } = await auth.login({
        ...request.body,
        ipAddress: request.ip,
        userAgent: request.headers['user-agent'],
        previousToken: readSessionToken(request),
      });
      setSessionCookie(request, reply, token, expiresAt);
      reply.header('cache-control', 'no-store');
      // Where the client goes next: a technician to the technician app (issue 19).
      return { user, home: homePathFor(user.role) };
    },
  );

  routes.post('/api/auth/logout', { bodyLimit: 1024, schema: { response: { 204: noContentSchema } } }, async (request, reply) => {
    await auth.logout(readSessionToken(request));
    clearSessionCookie(request, reply);
    return sendNoContent(reply);
  });

  // Behind the session guard: answers 401 without a session.
  routes.get('/api/admin/session', { schema: { response: { 200: sessionResponseSchema } } }, async (request) => ({
    user: request.staffUser!,
    home: homePathFor(request.staffUser!.role),
  }));
}
