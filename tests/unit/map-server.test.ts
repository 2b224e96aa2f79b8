import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import { acceptsEncoding, preferredEncoding } from '#server/lib/compressed-json.ts';
import { mapDateWindow } from '#server/modules/map/map.service.ts';
import { cspHeader, tileImageSource } from '#server/plugins/security.ts';

describe('map tile configuration', () => {
  it('defaults to OpenStreetMap and reads MAP_TILE_URL and MAP_TILE_ATTRIBUTION', () => {
    expect(loadConfig({}).map).toEqual({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', tileAttribution: '&copy; OpenStreetMap contributors' });
    expect(loadConfig({ MAP_TILE_URL: '', MAP_TILE_ATTRIBUTION: ' ' }).map.tileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(loadConfig({ MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: 'Own tiles' }).map).toEqual({
      tileUrl: '/tiles/{z}/{x}/{y}.png',
      tileAttribution: 'Own tiles',
    });
  });

  it('refuses a tile URL that is not a template of an http(s) server or a path', () => {
    for (const value of ['ftp://tiles.example.org/{z}/{x}/{y}.png', 'tiles.example.org/{z}/{x}/{y}.png', 'https://tiles.example.org/{z}/{x}.png', 'javascript:alert(1)//{z}{x}{y}']) {
      expect(() => loadConfig({ MAP_TILE_URL: value }), value).toThrow(ConfigError);
    }
  });

  it('allows the tile server as an image source: its origin, a wildcard for a templated subdomain', () => {
    expect(tileImageSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(tileImageSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(tileImageSource('https://tiles-{s}.example.org/{z}/{x}/{y}.png')).toBe('https://*.example.org');
    expect(tileImageSource('http://LOCALHOST:8080/tiles/{z}/{x}/{y}.png')).toBe('http://localhost:8080');
    expect(tileImageSource('/tiles/{z}/{x}/{y}.png')).toBeUndefined();
    expect(cspHeader([], { imageSources: ['https://*.tile.openstreetmap.org'] })).toContain("img-src 'self' data: blob: https://*.tile.openstreetmap.org;");
    expect(cspHeader()).toContain("img-src 'self' data: blob:;");
  });
});

describe('map answers', () => {
  it('go out in the best encoding the client accepts: Brotli, then gzip, then none', () => {
    expect(acceptsEncoding('gzip, deflate, br, zstd', 'gzip')).toBe(true);
    expect(acceptsEncoding('br;q=1.0, gzip;q=0.8', 'gzip')).toBe(true);
    expect(acceptsEncoding('*', 'gzip')).toBe(true);
    expect(acceptsEncoding('gzip;q=0', 'gzip')).toBe(false);
    expect(acceptsEncoding('br', 'gzip')).toBe(false);
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('gzip;q=0, br;q=0')).toBe('identity');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('identity')).toBe('identity');
    expect(preferredEncoding(undefined)).toBe('identity');
  });

  it('cover service dates: today, the next 7 days from today, this calendar month', () => {
    expect(mapDateWindow('all', '2026-02-26')).toBeUndefined();
    expect(mapDateWindow('today', '2026-02-28')).toEqual({ from: '2026-02-28', until: '2026-03-01' });
    expect(mapDateWindow('week', '2026-02-26')).toEqual({ from: '2026-02-26', until: '2026-03-05' });
    expect(mapDateWindow('month', '2026-02-26')).toEqual({ from: '2026-02-01', until: '2026-03-01' });
  });
});
