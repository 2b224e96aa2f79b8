import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * A JSON answer kept as bytes, with its Brotli and gzip copies each made once on first demand (in
 * the thread pool, not on the event loop). For large answers kept per database snapshot: the map's
 * run to megabytes at 20,000 customers and the calendar month's to hundreds of kilobytes. They
 * compress about 10 times; Brotli (quality 6, about as fast as gzip's level 6) is 15% smaller than
 * gzip on them, and browsers accept both (decision 026-b, addendum 3).
 */
export type CompressedJson = { bytes: Buffer; gzipped: () => Promise<Buffer>; brotli: () => Promise<Buffer> };

export function compressedJson(text: string): CompressedJson {
  const bytes = Buffer.from(text, 'utf8');
  let gzipped: Promise<Buffer> | undefined;
  let compressed: Promise<Buffer> | undefined;
  return {
    bytes,
    gzipped: () => (gzipped ??= gzip(bytes, { level: 6 })),
    brotli: () =>
      (compressed ??= brotli(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
      })),
  };
}

/** Whether an Accept-Encoding header admits an encoding (by name, or '*' for any; with a q above 0). */
export function acceptsEncoding(header: string | string[] | undefined, encoding: 'gzip' | 'br'): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const names = encoding === 'gzip' ? ['gzip', 'x-gzip', '*'] : ['br', '*'];
  return value.split(',').some((part) => {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!names.includes(name!)) return false;
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((found) => found !== undefined);
    return quality === undefined || Number(quality) > 0;
  });
}

/** The best encoding an Accept-Encoding header admits: Brotli, then gzip, then none (the server's answers and pages). */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | 'identity' {
  if (acceptsEncoding(header, 'br')) return 'br';
  if (acceptsEncoding(header, 'gzip')) return 'gzip';
  return 'identity';
}

/** The bytes in the best encoding the client accepts. */
export async function sendCompressedJson(request: FastifyRequest, reply: FastifyReply, answer: CompressedJson): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') return reply.send(answer.bytes);
  return reply.header('content-encoding', encoding).send(await (encoding === 'br' ? answer.brotli() : answer.gzipped()));
}
