import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { withAdminClient } from '../support/postgres-admin.ts';
import { startFakeS3Server } from '../support/fake-s3-server.ts';
import { startTestSmtpServer } from '../support/smtp-server.ts';

/**
 * The scaled set-up of docs/deploy.md on this machine (issue 23): one PostgreSQL database, one S3
 * bucket (tests/support/fake-s3-server.ts), three instances of the built server, and Debian's nginx
 * in front of them, round robin, with the
 * product's own proxy settings (deploy/nginx/hvac-proxy.conf). Playwright's global setup starts
 * it; the tests read `ScaleState` from the state file and drive everything through nginx.
 */

export const scaleDir = path.join(os.tmpdir(), 'hvac-scale');
const stateFile = path.join(scaleDir, 'state.json');
const projectRoot = path.resolve(import.meta.dirname, '../..');

export const scaleAdmin = { email: 'cluster-admin@example.com', password: 'Tidal-marsh-heat-pump-42' } as const;
/** The chat's per-address limit in the set-up: small, to see it hold across instances. */
export const scaleChatLimit = 6;

export type ScaleInstance = { name: string; port: number; pid: number; url: string };
export type ScaleState = {
  siteUrl: string;
  databaseUrl: string;
  instances: ScaleInstance[];
  /** Each message the fake SMTP server received, one JSON line each ({ to, subject }). */
  mailFile: string;
  nginxPid: number;
};

export function readScaleState(): ScaleState {
  return JSON.parse(readFileSync(stateFile, 'utf8')) as ScaleState;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, what: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function logTo(child: ChildProcess, file: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => appendFileSync(file, chunk));
    // A killed instance's pipes may reset: noted in its log, not a crash of the test runner.
    stream?.on('error', (error: Error) => appendFileSync(file, `[scale] output stream: ${error.message}\n`));
  }
  child.on('error', (error: Error) => appendFileSync(file, `[scale] process: ${error.message}\n`));
}

const children: ChildProcess[] = [];
let stopSmtp: (() => Promise<void>) | undefined;
let stopS3: (() => Promise<void>) | undefined;
let databaseToDrop: { adminUrl: string; name: string } | undefined;

/** Starts the set-up and writes the state file; `stopCluster` undoes it. */
export async function startCluster(): Promise<ScaleState> {
  rmSync(scaleDir, { recursive: true, force: true });
  mkdirSync(scaleDir, { recursive: true });
  // nginx's workers may run as another user: its temporary directories must be theirs to write.
  chmodSync(scaleDir, 0o777);

  // The database: SCALE_DATABASE_URL, or a new one on the local server (dropped at the end).
  let databaseUrl = process.env.SCALE_DATABASE_URL;
  if (!databaseUrl) {
    const adminUrl = process.env.SCALE_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `hvac_scale_${Date.now()}_${process.pid}`;
    await withAdminClient(adminUrl, (client) => client.query(`create database "${name}"`));
    databaseToDrop = { adminUrl, name };
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }

  const mailFile = path.join(scaleDir, 'mail.jsonl');
  writeFileSync(mailFile, '');
  const smtp = await startTestSmtpServer();
  const received = smtp.received;
  const push = received.push.bind(received);
  received.push = (...mails) => {
    for (const mail of mails) appendFileSync(mailFile, `${JSON.stringify({ to: mail.to, subject: mail.subject })}\n`);
    return push(...mails);
  };
  stopSmtp = smtp.close;
  // One bucket for every instance's photos (decision 028-b): an S3 server on 127.0.0.1.
  const s3 = await startFakeS3Server();
  stopS3 = s3.close;

  const nginxPort = await freePort();
  const siteUrl = `http://127.0.0.1:${nginxPort}`;
  const instances: ScaleInstance[] = [];
  for (const [index, name] of ['web-1', 'web-2', 'web-3'].entries()) {
    const port = await freePort();
    const dataDir = path.join(scaleDir, name);
    mkdirSync(dataDir, { recursive: true });
    const child = spawn(process.execPath, [path.join(projectRoot, 'build/node/main.mjs')], {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        INSTANCE_NAME: name,
        TRUST_PROXY: '1',
        COMPANY_SITE_URL: siteUrl,
        SMTP_URL: smtp.url,
        ...s3.env,
        ADMIN_EMAIL: scaleAdmin.email,
        ADMIN_PASSWORD: scaleAdmin.password,
        // The first instance migrates, makes the admin and seeds; the others find it done.
        SEED_DEMO: index === 0 ? 'true' : 'false',
        LOG_LEVEL: 'warn',
        GEOCODER: 'zip',
        CHAT_MESSAGE_LIMIT: String(scaleChatLimit),
        PUBLIC_FORM_LIMIT: '1000',
        LOGIN_RATE_LIMIT: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    logTo(child, path.join(scaleDir, `${name}.log`));
    if (index === 0) await waitFor(`http://127.0.0.1:${port}/readyz`, name, child);
    instances.push({ name, port, pid: child.pid!, url: `http://127.0.0.1:${port}` });
  }
  await Promise.all(instances.slice(1).map((instance, index) => waitFor(`${instance.url}/readyz`, instance.name, children[index + 1]!)));

  const nginxConf = path.join(scaleDir, 'nginx.conf');
  const temp = (name: string) => path.join(scaleDir, `nginx-${name}`);
  writeFileSync(
    nginxConf,
    `# Written by tests/scale/scale-cluster.ts: deploy/nginx/hvac-proxy.conf behind a plain listener.
worker_processes 2;
daemon off;
pid ${path.join(scaleDir, 'nginx.pid')};
error_log ${path.join(scaleDir, 'nginx-error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${path.join(scaleDir, 'nginx-access.log')};
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  upstream hvac {
${instances.map((instance) => `    server 127.0.0.1:${instance.port} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${nginxPort};
    include ${path.join(projectRoot, 'deploy/nginx/hvac-proxy.conf')};
  }
}
`,
  );
  const nginx = spawn(process.env.NGINX_BIN ?? '/usr/sbin/nginx', ['-c', nginxConf, '-p', scaleDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(nginx);
  logTo(nginx, path.join(scaleDir, 'nginx.log'));
  await waitFor(`${siteUrl}/healthz`, 'nginx', nginx, 20_000);

  const state: ScaleState = { siteUrl, databaseUrl, instances, mailFile, nginxPid: nginx.pid! };
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return state;
}

export async function stopCluster(): Promise<void> {
  for (const child of children.reverse()) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  await Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)),
    ),
  );
  await stopSmtp?.();
  await stopS3?.();
  if (databaseToDrop) {
    const { adminUrl, name } = databaseToDrop;
    await withAdminClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
  }
}
