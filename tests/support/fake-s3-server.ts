import { spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * A local S3-compatible server for tests (decision 028-b): s3rver (S3's REST API and XML answers,
 * objects as files in a fresh folder) as a child process on a private port (s3rver-main.mjs), behind a front on 127.0.0.1 that checks
 * every request's AWS Signature Version 4 the way S3 does, since s3rver 3 reads a V4 signature's
 * access key but does not check the signature itself. A wrong secret is answered 403
 * SignatureDoesNotMatch; a body that does not match its signed SHA-256 is 400 XAmzContentSHA256Mismatch.
 *
 * `corruptNextWrite(key)` flips a byte of the next PUT of that key after the signature check (a
 * store that damages what it keeps), for the tests of the checksum verification.
 */
export type FakeS3Server = {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** STORAGE_* variables for loadConfig/testConfig. */
  env: Record<string, string>;
  requests: { method: string; path: string; status: number }[];
  corruptNextWrite: (key: string) => void;
  close: () => Promise<void>;
};

/** s3rver's one built-in account: it looks up the access key, the front checks the secret. */
const accessKeyId = 'S3RVER';

export async function startFakeS3Server(options: { bucket?: string; region?: string } = {}): Promise<FakeS3Server> {
  const bucket = options.bucket ?? 'hvac-photos';
  const region = options.region ?? 'us-east-1';
  const secretAccessKey = `test-secret-${randomBytes(12).toString('hex')}`;
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'hvac-fake-s3-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', fileURLToPath(new URL('./s3rver-main.mjs', import.meta.url)), directory, bucket], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), exited.then(() => [undefined])])) as [string | undefined];
  if (!line) throw new Error('s3rver did not start (see its output above)');
  const inner = JSON.parse(line) as { port: number };
  const corrupted = new Set<string>();
  const requests: FakeS3Server['requests'] = [];

  const front = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      let body = Buffer.concat(chunks);
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const refuse = (status: number, code: string, message: string) => {
        requests.push({ method: incoming.method ?? '', path: url.pathname, status });
        outgoing.writeHead(status, { 'content-type': 'application/xml' });
        outgoing.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
      };
      const problem = signatureProblem(incoming, url, body, { accessKeyId, secretAccessKey, region });
      if (problem) return refuse(problem.status, problem.code, problem.message);
      const key = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
      if (incoming.method === 'PUT' && corrupted.delete(key) && body.length > 0) {
        body = Buffer.from(body);
        body[0] = body[0]! ^ 0xff;
      }
      const headers = { ...incoming.headers, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      const upstream = http.request({ host: '127.0.0.1', port: inner.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
        requests.push({ method: incoming.method ?? '', path: url.pathname, status: answer.statusCode ?? 0 });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on('error', () => refuse(502, 'InternalError', 'upstream failed'));
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    env: { STORAGE_URL: url, STORAGE_BUCKET: bucket, STORAGE_ACCESS_KEY_ID: accessKeyId, STORAGE_SECRET_ACCESS_KEY: secretAccessKey, STORAGE_REGION: region },
    requests,
    corruptNextWrite: (key) => void corrupted.add(key),
    close: async () => {
      await new Promise<void>((resolve) => {
        front.close(() => resolve());
        front.closeAllConnections();
      });
      child.kill('SIGTERM');
      await exited;
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

// AWS Signature Version 4, checked as S3 checks it ------------------------------------------------

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const uriEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function signatureProblem(
  incoming: http.IncomingMessage,
  url: URL,
  body: Buffer,
  account: { accessKeyId: string; secretAccessKey: string; region: string },
): { status: number; code: string; message: string } | undefined {
  const authorization = incoming.headers.authorization ?? '';
  const parsed = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!parsed) return { status: 403, code: 'AccessDenied', message: 'Only AWS4-HMAC-SHA256 header signatures are accepted here' };
  const [, keyId, date, region, signedHeaderList, signature] = parsed as unknown as string[];
  if (keyId !== account.accessKeyId) return { status: 403, code: 'InvalidAccessKeyId', message: 'Unknown access key' };
  if (region !== account.region) return { status: 400, code: 'AuthorizationHeaderMalformed', message: `Region ${region} is wrong; expecting ${account.region}` };
  const amzDate = String(incoming.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(date!)) return { status: 403, code: 'SignatureDoesNotMatch', message: 'x-amz-date does not match the credential date' };
  const payloadHash = String(incoming.headers['x-amz-content-sha256'] ?? '');
  if (/^[0-9a-f]{64}$/.test(payloadHash) && sha256Hex(body) !== payloadHash) {
    return { status: 400, code: 'XAmzContentSHA256Mismatch', message: 'The body does not match its x-amz-content-sha256' };
  }
  if (!/^[0-9a-f]{64}$/.test(payloadHash) && payloadHash !== 'UNSIGNED-PAYLOAD') {
    return { status: 400, code: 'InvalidRequest', message: `x-amz-content-sha256 ${payloadHash || '(missing)'} is not supported by this fake` };
  }
  const signedHeaders = signedHeaderList!.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) return { status: 403, code: 'AccessDenied', message: 'host and x-amz-date must be signed' };
  const rawPath = (incoming.url ?? '/').split('?')[0]!;
  const query = [...url.searchParams.entries()]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headerLines = signedHeaders.map((name) => {
    const value = incoming.headers[name];
    return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
  });
  const canonicalRequest = [incoming.method, rawPath, query, headerLines.join(''), signedHeaderList, payloadHash].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${account.secretAccessKey}`, date!), region!), 's3'), 'aws4_request');
  if (hmac(signingKey, stringToSign).toString('hex') !== signature) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}
