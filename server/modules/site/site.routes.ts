import type { FastifyInstance } from 'fastify';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { publicPages } from '#shared/public-pages.ts';

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** For search engines: the public pages (sitemap.xml) and what not to crawl (robots.txt). */
export async function siteRoutes(app: FastifyInstance, options: { company: CompanyProfile }): Promise<void> {
  const { siteUrl } = options.company;
  const sitemap =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    publicPages
      .map(
        (page) =>
          `  <url><loc>${escapeXml(`${siteUrl}${page.path}`)}</loc><changefreq>${page.changeFrequency}</changefreq><priority>${page.priority.toFixed(1)}</priority></url>`,
      )
      .join('\n') +
    '\n</urlset>\n';
  const robots = `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${siteUrl}/sitemap.xml\n`;

  app.get('/sitemap.xml', async (_request, reply) =>
    reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(sitemap),
  );
  app.get('/robots.txt', async (_request, reply) =>
    reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
}
