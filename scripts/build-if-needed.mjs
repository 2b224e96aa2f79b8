// Builds the app when the sources, the lockfile or the company profile changed since the last build,
// so `npm start` and the end-to-end tests always serve what the tree says. A fingerprint of
// everything the build reads is kept in build/.fingerprint.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const inputs = ['app', 'server', 'shared', 'public', 'scripts/defer-hydration.mjs', 'scripts/compress-client.mjs', 'scripts/build-tech-sw.mjs', 'scripts/build-server.mjs', 'package-lock.json', 'vite.config.ts', 'react-router.config.ts', 'tsconfig.json'];
const fingerprintFile = 'build/.fingerprint';

function* files(entry) {
  if (!fs.existsSync(entry)) return;
  if (fs.statSync(entry).isFile()) {
    yield entry;
    return;
  }
  for (const child of fs.readdirSync(entry).sort()) yield* files(path.join(entry, child));
}

const hash = createHash('sha256');
for (const input of inputs) {
  for (const file of files(input)) hash.update(file).update('\0').update(fs.readFileSync(file)).update('\0');
}
// The public pages carry the company profile, read from COMPANY_* variables and TZ_BUSINESS.
const profileVariable = (key) => key.startsWith('COMPANY_') || key === 'TZ_BUSINESS';
for (const [name, value] of Object.entries(process.env).filter(([key]) => profileVariable(key)).sort()) {
  hash.update(`${name}=${value}\0`);
}
const fingerprint = hash.digest('hex');

const isCurrent =
  fs.existsSync('build/node/main.mjs') &&
  fs.existsSync(fingerprintFile) &&
  fs.readFileSync(fingerprintFile, 'utf8') === fingerprint;

if (!isCurrent) {
  console.log('Building the app (sources changed since the last build)...');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(fingerprintFile, fingerprint);
}
