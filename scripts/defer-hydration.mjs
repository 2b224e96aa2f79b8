// Rewrites the prerendered public pages so that they paint from their own bytes (decision 020-f):
// - the stylesheet's rules that the page's markup can use are inlined (no render-blocking request
//   before the first paint; scripts/css-prune.mjs); its <link> stays, disabled, and is enabled
//   when the page starts its scripts (the states hydration can show: menus, the chat, errors);
// - React Router's module script and its modulepreload links leave the critical path: an inline
//   loader, in the module script's place, imports the same modules (the whole page hydrates, as
//   before) on the visitor's first sign of intent (pointer, key, touch, focus, scroll), at once when
//   the chat was left open in this tab, or after the load event on pages with a form (typing must
//   never happen before the form is live).
// A button clicked before hydration is clicked again once the page is live, so no click is lost.
// The server hashes every inline script of a page into its CSP (server/plugins/static-client.ts),
// the loader included; the modules it imports are this server's own files ('self').
// The staff screens' shell (__spa-fallback.html) is left as React Router wrote it.
import fs from 'node:fs';
import path from 'node:path';
import { classNamesOf, pruneCss } from './css-prune.mjs';

const root = process.argv[2] ?? 'build/client';

/**
 * The loader, in place of React Router's module script (a classic inline <script> where React
 * expects a <script>, so hydration finds the tree it rendered). `boot` is the module script turned
 * into dynamic imports. Runs in the page: keep it small and dependency-free.
 */
function loaderScript(boot, startWhen) {
  return `(function(){var started=false,live=false,pending=null,events=['pointerdown','pointermove','touchstart','keydown','focusin','scroll','wheel'],css=document.querySelector('link[rel="stylesheet"][disabled]');function boot(){${boot}}function start(){if(started)return;started=true;for(var i=0;i<events.length;i++)removeEventListener(events[i],start,true);if(css)css.disabled=false;boot();}function replay(){var b=pending;pending=null;if(b&&b.isConnected)b.click();}addEventListener('app:hydrated',function(){live=true;if(!pending)return;if(!css||css.sheet)setTimeout(replay,0);else{css.addEventListener('load',replay);css.addEventListener('error',replay);}},{once:true});document.addEventListener('click',function(e){if(live)return;var b=e.target&&e.target.closest&&e.target.closest('button');if(!b)return;e.preventDefault();e.stopImmediatePropagation();pending=b;start();},true);for(var i=0;i<events.length;i++)addEventListener(events[i],start,{capture:true,passive:true});var chatOpen=false;try{chatOpen=/"isOpen":true/.test(sessionStorage.getItem('hvac-chat-v1')||'');}catch(e){}if(chatOpen)start();${
    startWhen === 'load'
      ? "else if(document.readyState==='complete')setTimeout(start,0);else addEventListener('load',function(){setTimeout(start,0);});"
      : ''
  }})();`;
}

/**
 * React Router's module script as a function body: the same modules, imported in parallel, the
 * route modules published as before, then the client entry (which hydrates).
 */
export function bootCode(moduleScript) {
  const imports = [];
  let routeModules;
  let entry;
  for (const rawLine of moduleScript.split('\n')) {
    const line = rawLine.trim();
    let match;
    if (line === '') continue;
    else if ((match = /^import (".+?");$/.exec(line))) imports.push({ name: undefined, url: match[1] });
    else if ((match = /^import \* as (\w+) from (".+?");$/.exec(line))) imports.push({ name: match[1], url: match[2] });
    else if ((match = /^window\.__reactRouterRouteModules = (\{.*\});$/.exec(line))) routeModules = match[1];
    else if ((match = /^import\((".+?")\);$/.exec(line))) entry = match[1];
    else throw new Error(`defer-hydration: unexpected line in React Router's module script: ${line}`);
  }
  if (!routeModules || !entry) throw new Error("defer-hydration: React Router's module script has no route modules or entry");
  const names = imports.map((item, index) => (item.name ? `${item.name}=m[${index}]` : undefined)).filter(Boolean);
  return `Promise.all([${imports.map((item) => `import(${item.url})`).join(',')}]).then(function(m){var ${names.join(',')};window.__reactRouterRouteModules=${routeModules};return import(${entry});});`;
}

const modulePreload = /<link rel="modulepreload" href="[^"]*"\/>/g;
const moduleScript = /<script type="module" async="">([\s\S]*?)<\/script>/;
const stylesheet = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"\/>/g;
const formControl = /<(form|input|select|textarea)\b/;

function htmlFiles(directory) {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html') && entry.name !== '__spa-fallback.html')
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The rewritten page; a page without React Router's module script is returned unchanged. The
 * stylesheet's <link> stays (React hydrates the head it rendered) but disabled: not fetched until
 * the loader enables it, while its rules for this markup, inlined, paint the page.
 */
export function deferHydration(html, readAsset) {
  const script = moduleScript.exec(html);
  if (!script) return html;
  const startWhen = formControl.test(html) ? 'load' : 'intent';
  const loader = loaderScript(bootCode(script[1]), startWhen);
  const classes = classNamesOf(html);
  return html
    .replace(modulePreload, '')
    .replace(stylesheet, (link, href) => `<style>${pruneCss(readAsset(href), classes).replace(/<\/style/gi, '<\\/style')}</style>${link.replace('"/>', '" disabled=""/>')}`)
    .replace(moduleScript, () => `<script>${loader}</script>`);
}

if (import.meta.url === `file://${path.resolve(process.argv[1] ?? '')}`) {
  const readAsset = (href) => fs.readFileSync(path.join(root, href), 'utf8');
  let count = 0;
  for (const file of htmlFiles(root)) {
    const html = fs.readFileSync(file, 'utf8');
    const rewritten = deferHydration(html, readAsset);
    if (rewritten !== html) {
      fs.writeFileSync(file, rewritten);
      count += 1;
    }
  }
  console.log(`defer-hydration: ${count} prerendered page(s) rewritten in ${root}.`);
}
