import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#tests/support/test-app.ts';
// @ts-expect-error -- a build script in plain JavaScript, without type declarations
import { buildTechPage } from '../../scripts/tech-page.mjs';

// A small built client on disk, laid out as `react-router build` + compress-client.mjs lay it out.
let clientDir: string;
let context: TestContext;
const inlineScript = 'window.__context = {"page":"heating"};';

function write(relative: string, content: string, { compress = false } = {}) {
  const file = path.join(clientDir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (compress) {
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
  }
}

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-client-'));
  write('index.html', '<html><body><h1>Home page</h1></body></html>');
  write('Heating/index.html', `<html><body><h1>Heating page</h1><script>${inlineScript}</script></body></html>`, { compress: true });
  write('__spa-fallback.html', '<html><body><p>Loading...</p></body></html>');
  write('assets/entry-abc123.js', `console.log(${JSON.stringify('x'.repeat(2000))});`, { compress: true });
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // /tech's own page as scripts/build-tech-sw.mjs writes it (decision 022-d): inline scripts of its own.
  const techShell =
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/root-1.css"/></head><body><p>Loading...</p>' +
    '<script type="module" async="">import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-1.js";\nwindow.__reactRouterRouteModules = {"root":route0};\nimport("/assets/entry.client-1.js");</script></body></html>';
  write('tech/index.html', buildTechPage(techShell, ['/assets/my-day-1.js'], () => '.p-8{padding:2rem}'));
  write('tech/sw.js', `self.addEventListener("fetch", () => {}); // ${'x'.repeat(2000)}`, { compress: true });
  write('tech/manifest.webmanifest', '{"name":"tech","start_url":"/tech","scope":"/tech"}');
  write('tech/icon-192.png', 'png');
  context = await createTestApp({ serveClient: true, env: { CLIENT_DIR: clientDir } });
});
afterAll(async () => {
  await context.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

describe('serving the built client', () => {
  it('serves the technician app: the shell for /tech paths, its worker uncached and allowed over /tech, its manifest (decision 022-b)', async () => {
    for (const url of ['/tech', '/tech/', '/tech/visits/abc']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Loading...');
      expect(String(response.headers['content-security-policy']), url).toContain("worker-src 'self'");
      expect(String(response.headers['content-security-policy']), url).toContain("manifest-src 'self'");
    }
    // /tech's page starts the app from inline scripts: each allowed by its hash, none by 'unsafe-inline'.
    const techPage = await context.app.inject({ method: 'GET', url: '/tech' });
    const scriptSrc = String(techPage.headers['content-security-policy']).split('; ').find((directive) => directive.startsWith('script-src '))!;
    const inlineScripts = [...techPage.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inlineScripts).toHaveLength(1);
    for (const body of inlineScripts) expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    expect(scriptSrc).not.toContain('unsafe-inline');
    const worker = await context.app.inject({ method: 'GET', url: '/tech/sw.js', headers: { 'accept-encoding': 'br' } });
    expect(worker.headers['content-encoding']).toBe('br');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['service-worker-allowed']).toBe('/tech');
    const manifest = await context.app.inject({ method: 'GET', url: '/tech/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.json()).toMatchObject({ start_url: '/tech', scope: '/tech' });
    const icon = await context.app.inject({ method: 'GET', url: '/tech/icon-192.png' });
    expect(icon.headers['cache-control']).toContain('max-age=2592000');
    expect(icon.headers['service-worker-allowed']).toBeUndefined();
  });

  it('serves prerendered pages by path, case-insensitively, with or without a trailing slash', async () => {
    for (const url of ['/Heating', '/heating', '/HEATING/', '/heating?utm_source=flyer']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Heating page');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it("allows exactly the page's own inline scripts by hash in its CSP", async () => {
    const response = await context.app.inject({ method: 'GET', url: '/heating' });
    const hash = createHash('sha256').update(inlineScript).digest('base64');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    const scriptSources = /script-src ([^;]*)/.exec(csp)?.[1];
    expect(scriptSources).toBe(`'self' 'sha256-${hash}'`);
  });

  it('lets the staff screens (the SPA shell) load map tiles, and only them', async () => {
    const screen = await context.app.inject({ method: 'GET', url: '/admin/map' });
    expect(screen.body).toContain('Loading...');
    expect(String(screen.headers['content-security-policy'])).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
    const page = await context.app.inject({ method: 'GET', url: '/heating' });
    expect(String(page.headers['content-security-policy'])).toContain("img-src 'self' data: blob:;");
  });

  it('sends the Brotli or gzip copy when the browser accepts it', async () => {
    const brotli = await context.app.inject({ method: 'GET', url: '/heating', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toContain('Heating page');
    const gzip = await context.app.inject({ method: 'GET', url: '/heating', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain('Heating page');
    expect(gzip.headers.vary).toContain('accept-encoding');
    const asset = await context.app.inject({ method: 'GET', url: '/assets/entry-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.headers['content-encoding']).toBe('br');
  });

  it('caches hashed assets for a year and answers 404 for files that do not exist', async () => {
    const asset = await context.app.inject({ method: 'GET', url: '/assets/entry-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await context.app.inject({ method: 'GET', url: '/assets/entry-old999.js' })).statusCode).toBe(404);
    expect((await context.app.inject({ method: 'GET', url: '/robots-missing.txt' })).statusCode).toBe(404);
  });

  it('serves the app shell for staff screens and paths that were not prerendered', async () => {
    for (const url of ['/admin', '/admin/customers/123', '/some/unknown/page']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Loading...');
    }
  });

  it('never serves HTML for API paths', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/public/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });
});
