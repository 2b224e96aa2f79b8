import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzip = promisify(zlib.gzip);

/**
 * A JSON answer kept as bytes, with its gzip copy made once on first demand (in the thread pool,
 * not on the event loop). For large answers kept per database snapshot: the map's run to megabytes
 * at 20,000 customers and the calendar month's to hundreds of kilobytes, and they compress about 5
 * to 10 times; browsers always accept gzip.
 */
export type CompressedJson = { bytes: Buffer; gzipped: () => Promise<Buffer> };

export function compressedJson(text: string): CompressedJson {
  const bytes = Buffer.from(text, 'utf8');
  let gzipped: Promise<Buffer> | undefined;
  return { bytes, gzipped: () => (gzipped ??= gzip(bytes, { level: 6 })) };
}

/** Whether an Accept-Encoding header admits gzip (by name or '*', with a q above 0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*' && name !== 'x-gzip') return false;
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((found) => found !== undefined);
    return quality === undefined || Number(quality) > 0;
  });
}

export async function sendCompressedJson(request: FastifyRequest, reply: FastifyReply, answer: CompressedJson): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (acceptsGzip(request.headers['accept-encoding'])) return reply.header('content-encoding', 'gzip').send(await answer.gzipped());
  return reply.send(answer.bytes);
}
