import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script in plain JavaScript, without type declarations
import { classNamesOf, pruneCss } from '../../scripts/css-prune.mjs';
// @ts-expect-error -- a build script in plain JavaScript, without type declarations
import { bootCode, deferHydration } from '../../scripts/defer-hydration.mjs';

// Decision 020-f: the prerendered public pages paint from their own bytes.

describe('classNamesOf', () => {
  it('reads every class attribute, entities decoded', () => {
    const names = classNamesOf('<div class="flex md:hidden"><p class="bg-brand-900/70 [&amp;&gt;svg]:size-4">x</p></div>') as Set<string>;
    expect([...names].sort()).toEqual(['[&>svg]:size-4', 'bg-brand-900/70', 'flex', 'md:hidden']);
  });
});

describe('pruneCss', () => {
  const css =
    '@layer theme,base,utilities;@layer base{*,:after{box-sizing:border-box}h1{font-size:inherit}}' +
    '@layer utilities{.flex{display:flex}.hidden{display:none}.bg-brand-900\\/70{color:red}.\\32 xl\\:flex{display:flex}' +
    '.a,.b{margin:0}.space-y-4>:not(:last-child){margin:1rem}.x:not(.y){color:blue}' +
    '@media (width>=48rem){.md\\:hidden{display:none}.md\\:block{display:block}}@media print{.print\\:hidden{display:none}}}' +
    '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}@keyframes spin{to{transform:rotate(360deg)}}';

  it('keeps rules without classes, rules whose classes the page uses, and at-rules without style rules', () => {
    const kept = pruneCss(css, new Set(['flex', 'md:hidden', 'bg-brand-900/70', '2xl:flex', 'b', 'x'])) as string;
    expect(kept).toBe(
      '@layer theme,base,utilities;@layer base{*,:after{box-sizing:border-box}h1{font-size:inherit}}' +
        '@layer utilities{.flex{display:flex}.bg-brand-900\\/70{color:red}.\\32 xl\\:flex{display:flex}' +
        '.b{margin:0}.x:not(.y){color:blue}' +
        '@media (width>=48rem){.md\\:hidden{display:none}}}' +
        '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}@keyframes spin{to{transform:rotate(360deg)}}',
    );
  });

  it('keeps everything when every class is used', () => {
    const all = new Set(['flex', 'hidden', 'bg-brand-900/70', '2xl:flex', 'a', 'b', 'space-y-4', 'x', 'md:hidden', 'md:block', 'print:hidden']);
    expect(pruneCss(css, all)).toBe(css);
  });
});

const reactRouterModuleScript = [
  'import "/assets/manifest-1.js";',
  'import * as route0 from "/assets/root-1.js";',
  'import * as route1 from "/assets/home-1.js";',
  '  ',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/public/home":route1};',
  '',
  'import("/assets/entry.client-1.js");',
].join('\n');

describe('bootCode', () => {
  it('imports the same modules in parallel, publishes the route modules, then imports the entry', () => {
    expect(bootCode(reactRouterModuleScript)).toBe(
      'Promise.all([import("/assets/manifest-1.js"),import("/assets/root-1.js"),import("/assets/home-1.js")])' +
        '.then(function(m){var route0=m[1],route1=m[2];window.__reactRouterRouteModules={"root":route0,"routes/public/home":route1};' +
        'return import("/assets/entry.client-1.js");});',
    );
  });

  it('refuses a module script it does not understand (the build fails rather than a page that never starts)', () => {
    expect(() => bootCode(`${reactRouterModuleScript}\nexport const x = 1;`)).toThrow(/unexpected line/);
  });
});

describe('deferHydration', () => {
  const page = (body: string) =>
    '<html><head><link rel="modulepreload" href="/assets/root-1.js"/><link rel="stylesheet" href="/assets/root-1.css"/></head>' +
    `<body>${body}<script type="module" async="">${reactRouterModuleScript}</script></body></html>`;
  const readAsset = () => '.flex{display:flex}.hidden{display:none}';

  it('inlines the used rules, keeps the stylesheet link disabled, drops the preloads and starts on intent', () => {
    const html = deferHydration(page('<div class="flex">x</div>'), readAsset) as string;
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('type="module"');
    expect(html).toContain('<style>.flex{display:flex}</style><link rel="stylesheet" href="/assets/root-1.css" disabled=""/>');
    expect(html).toContain('import("/assets/entry.client-1.js")');
    expect(html).not.toContain("addEventListener('load',function(){setTimeout(start");
  });

  it('starts after the load event on a page with a form', () => {
    const html = deferHydration(page('<form class="flex"><input name="a"/></form>'), readAsset) as string;
    expect(html).toContain("addEventListener('load',function(){setTimeout(start");
  });

  it('leaves a page without React Router\'s module script alone', () => {
    const html = '<html><head></head><body><p>x</p></body></html>';
    expect(deferHydration(html, readAsset)).toBe(html);
  });
});
