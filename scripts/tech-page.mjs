import { bootCode } from './defer-hydration.mjs';

// /tech's own page (decision 022-d): the SPA shell, painted from its own bytes, then starting the
// app with everything My day needs asked for at once. The server serves build/client/tech/index.html
// for /tech; the plain shell stays the answer for /tech/visits/...
// - The whole stylesheet is inlined and its <link> (still where React renders it) disabled, so never
//   fetched: the page's first paint waits on no request, and the rules are parsed once, with the
//   page, before that paint. Only the rules the shell's markup uses (scripts/css-prune.mjs, as the
//   public pages do) with the full sheet loaded without blocking (`media="print"`, switched once
//   loaded) was measured first: the second parse and style pass, after the first paint, made a
//   long task on Lighthouse's slowed CPU. Whole, the sheet also covers every screen the app may
//   go to without a page load (the visit, the account, the office's sign-in page).
// - React Router's module script and its modulepreloads become a loader (the public pages'
//   bootCode, scripts/defer-hydration.mjs) that runs in the first frame, just before it is painted
//   (at once in a hidden tab): it announces the modules of the root, the /tech layout and My day (all at once,
//   not found one import after another) and the day's visits (`GET /api/tech/visits` with no
//   query, the app's first request: the server answers for the business's today and the kept
//   days), then imports the modules and starts the app. The first paint never waits on them (nor can
//   they have arrived before it).
// The server hashes the loader into the page's CSP.

/**
 * /tech's page from React Router's SPA shell (`spaShell`, __spa-fallback.html): `myDayModules` are
 * the /tech layout's and My day's modules with their imports (from the route manifest), announced
 * with the shell's own; `readAsset(href)` reads a built file (the stylesheet, inlined).
 */
export function buildTechPage(spaShell, myDayModules, readAsset) {
  const modulePreload = /<link rel="modulepreload" href="([^"]+)"\/>/g;
  const announced = new Set([...spaShell.matchAll(modulePreload)].map((match) => match[1]));
  for (const file of myDayModules) announced.add(file);
  const moduleScript = /<script type="module" async="">([\s\S]*?)<\/script>/;
  const script = moduleScript.exec(spaShell);
  if (!script) throw new Error('__spa-fallback.html has no React Router module script');
  const hints = [...[...announced].map((file) => ['modulepreload', file]), ['preload', '/api/tech/visits', 'fetch']];
  const loader =
    `(function(){function start(){var h=${JSON.stringify(hints)};for(var i=0;i<h.length;i++){var l=document.createElement('link');l.rel=h[i][0];l.href=h[i][1];if(h[i][2]){l.as=h[i][2];l.crossOrigin='anonymous';}document.head.appendChild(l);}${bootCode(script[1])}}` +
    "if(document.visibilityState==='visible')requestAnimationFrame(start);else start();})();";
  const stylesheetLink = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"\/>/g;
  const stylesheets = [...spaShell.matchAll(stylesheetLink)];
  if (stylesheets.length !== 1) throw new Error(`__spa-fallback.html should link one stylesheet, found ${stylesheets.length}`);
  const [stylesheet, stylesheetHref] = stylesheets[0];
  const wholeCss = readAsset(stylesheetHref).replace(/<\/style/gi, '<\\/style');
  const charset = '<meta charSet="utf-8"/>';
  if (!spaShell.includes(charset)) throw new Error(`__spa-fallback.html has no ${charset}`);
  if (!spaShell.includes('</body>')) throw new Error('__spa-fallback.html has no </body>');
  const techPage = spaShell
    .replace(stylesheet, '')
    .replace(modulePreload, '')
    .replace(charset, () => `${charset}<style>${wholeCss}</style>${stylesheet.replace('"/>', '" disabled=""/>')}`)
    .replace(moduleScript, () => `<script>${loader}</script>`);
  return techPage;
}
