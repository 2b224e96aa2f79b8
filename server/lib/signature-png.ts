import { fileTypeFromBuffer } from 'file-type';
import { signatureMaxBytes } from '#shared/tech.ts';
import { AppError } from '#server/errors.ts';
import { loadSharp } from '#server/lib/sharp.ts';

const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The signature pad's canvas is a phone's width at a few device pixels per point. */
const signatureMaxSide = 4000;

/**
 * The signature pad's PNG, checked by its content: a data URL's base64 (the contract's pattern),
 * at most signatureMaxBytes decoded, PNG by its magic bytes and by the file-type sniffer the photo
 * pipeline uses, and a picture sharp can read of a sensible size. Anything else is a 400.
 */
export async function decodeSignature(dataUrl: string, message = 'The signature must be a PNG image.'): Promise<Buffer> {
  const invalid = () => new AppError('VALIDATION_FAILED', message, [{ path: 'signature', message }]);
  const comma = dataUrl.indexOf(',');
  if (!dataUrl.startsWith('data:image/png;base64,') || comma < 0) throw invalid();
  const bytes = Buffer.from(dataUrl.slice(comma + 1), 'base64');
  if (bytes.length < pngMagic.length || bytes.length > signatureMaxBytes) throw invalid();
  if (!bytes.subarray(0, pngMagic.length).equals(pngMagic)) throw invalid();
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime !== 'image/png') throw invalid();
  const sharp = await loadSharp();
  try {
    const { format, width, height } = await sharp(bytes, { limitInputPixels: signatureMaxSide * signatureMaxSide }).metadata();
    if (format !== 'png' || !width || !height || width > signatureMaxSide || height > signatureMaxSide) throw invalid();
    // A full decode: a truncated or damaged image is refused now, not when the office opens it.
    await sharp(bytes, { limitInputPixels: signatureMaxSide * signatureMaxSide }).raw().toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid();
  }
  return bytes;
}

