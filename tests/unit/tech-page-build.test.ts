import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script in plain JavaScript, without type declarations
import { buildTechPage } from '../../scripts/tech-page.mjs';

// Decision 022-d: /tech's page paints from its own bytes, then starts the app.

const spaShell =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/root-1.css"/>' +
  '<title>x</title><link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/framework-1.js"/>' +
  '<link rel="modulepreload" href="/assets/root-1.js"/></head><body class="min-h-screen bg-white"><p role="status" class="p-8">Loading...</p>' +
  '<script>window.__reactRouterContext = {};</script><script type="module" async="">import "/assets/manifest-1.js";\n' +
  'import * as route0 from "/assets/root-1.js";\n  \n  window.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client-1.js");</script></body></html>';
const css = '@layer base{*{margin:0}}@layer utilities{.p-8{padding:2rem}.bg-white{color:#fff}.min-h-screen{min-height:100vh}.text-lg{font-size:1.1rem}}';
const build = () => buildTechPage(spaShell, ['/assets/layout-1.js', '/assets/framework-1.js', '/assets/my-day-1.js'], (href: string) => {
  expect(href).toBe('/assets/root-1.css');
  return css;
}) as string;

describe('buildTechPage', () => {
  it('inlines the whole stylesheet and never fetches it: the first paint waits on no request', () => {
    const page = build();
    expect(page).toContain(`<style>${css}</style>`);
    expect(page).toContain('<link rel="stylesheet" href="/assets/root-1.css" disabled=""/>');
    expect(page).not.toContain('<link rel="stylesheet" href="/assets/root-1.css"/>');
  });

  it('asks for no module before the first paint; its loader announces the shell’s and My day’s modules once each and the day’s visits', () => {
    const page = build();
    expect(page).not.toContain('rel="modulepreload"');
    expect(page).not.toContain('type="module"');
    const hints = JSON.parse(/var h=(\[.*?\]\]);/.exec(page)![1]!) as string[][];
    expect(hints).toEqual([
      ['modulepreload', '/assets/manifest-1.js'],
      ['modulepreload', '/assets/framework-1.js'],
      ['modulepreload', '/assets/root-1.js'],
      ['modulepreload', '/assets/layout-1.js'],
      ['modulepreload', '/assets/my-day-1.js'],
      ['preload', '/api/tech/visits', 'fetch'],
    ]);
    expect(page).toContain("if(document.visibilityState==='visible')requestAnimationFrame(start);else start();");
    expect(page).toContain('window.__reactRouterRouteModules={"root":route0};return import("/assets/entry.client-1.js");');
  });

  it('refuses a shell it does not understand (the build fails rather than a page that never starts)', () => {
    expect(() => buildTechPage(spaShell.replace(/<script type="module"[\s\S]*?<\/script>/, ''), [], () => css)).toThrow(/module script/);
    expect(() => buildTechPage(spaShell.replace('<link rel="stylesheet" href="/assets/root-1.css"/>', ''), [], () => css)).toThrow(/one stylesheet/);
  });
});
