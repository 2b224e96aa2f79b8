import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { customerPhotoMessages, photoUploadLimits } from '#shared/customer.ts';
import { AppError } from '#server/errors.ts';
import { loadSharp } from '#server/lib/sharp.ts';

// The photo pipeline (OWASP file upload, decision 010): the type comes from the bytes, never from
// the name or the declared type; the image is decoded and re-encoded, so what is stored is pixels
// the server wrote itself, without any of the uploaded file's metadata.

/** Long side of the display version and of the thumbnail, in pixels. */
export const displayMaxSide = 1600;
export const thumbnailMaxSide = 320;
/** WebP: about a third smaller than JPEG at the same quality, keeps transparency, shown by every current browser. */
export const photoContentType = 'image/webp';
const photoExtension = 'webp';

type AcceptedType = (typeof photoUploadLimits.acceptedTypes)[number];
const acceptedTypes: readonly string[] = photoUploadLimits.acceptedTypes;
const isHeifType = (type: AcceptedType) => type === 'image/heic' || type === 'image/heif';

export type ProcessedPhoto = {
  /** From the original name, reduced to [a-z0-9-]; part of the object keys. */
  safeName: string;
  display: { bytes: Buffer; width: number; height: number };
  thumbnail: { bytes: Buffer; width: number; height: number };
};

/** The uploaded name as it may appear in a message: no folders, no control characters, not too long. */
export function fileNameForMessage(originalName: string | undefined): string {
  const base = (originalName ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!clean) return 'The file';
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

/** 'IMG 2041 (Copy).HEIC' -> 'img-2041-copy': letters, digits and dashes only; 'photo' when nothing is left. */
export function safeFileStem(originalName: string | undefined): string {
  const base = (originalName ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[^.]*$/, '');
  const safe = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return safe || 'photo';
}

/**
 * customers/{customerId}/{timestamp}_{safe-name}-{random}-display.webp and the same with -thumb:
 * made by the server only. The random part keeps two uploads of the same name apart.
 */
export function photoObjectKeys(customerId: string, timestamp: number, safeName: string): { display: string; thumbnail: string } {
  const stem = `customers/${customerId}/${timestamp}_${safeName}-${randomBytes(4).toString('hex')}`;
  return { display: `${stem}-display.${photoExtension}`, thumbnail: `${stem}-thumb.${photoExtension}` };
}

/** A few images at a time: a 50-megapixel decode takes hundreds of MB and most of a core. */
const processing = createLimiter(2);

/**
 * Checks one uploaded file and makes its display version and thumbnail. Throws an AppError (400)
 * with a message naming the file when it is refused.
 */
export async function processPhoto(bytes: Buffer, originalName: string | undefined): Promise<ProcessedPhoto> {
  const fileName = fileNameForMessage(originalName);
  if (bytes.length > photoUploadLimits.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', customerPhotoMessages.tooLarge(fileName));

  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !acceptedTypes.includes(detected.mime)) {
    throw new AppError('VALIDATION_FAILED', customerPhotoMessages.notAnImage(fileName));
  }
  const type = detected.mime as AcceptedType;
  const unreadable = () =>
    new AppError('VALIDATION_FAILED', isHeifType(type) ? customerPhotoMessages.heicUnreadable(fileName) : customerPhotoMessages.unreadable(fileName));

  return processing(async () => {
    const sharp = await loadSharp();
    // The header alone (no decode): refuse decompression bombs with a clear message before any work.
    let width: number | undefined;
    let height: number | undefined;
    try {
      ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
    } catch {
      throw unreadable();
    }
    if (!width || !height) throw unreadable();
    if (width * height > photoUploadLimits.maxPixels) {
      throw new AppError('VALIDATION_FAILED', customerPhotoMessages.tooManyPixels(fileName, Math.ceil((width * height) / 100_000) / 10));
    }

    try {
      // rotate(): turn the pixels as the EXIF orientation says. Without withMetadata()/keep*(),
      // sharp writes no EXIF (GPS included), XMP, IPTC or ICC profile, converting to sRGB.
      // limitInputPixels is the decoder's own guard, in case the header lied.
      const display = await sharp(bytes, { limitInputPixels: photoUploadLimits.maxPixels })
        .rotate()
        .resize({ width: displayMaxSide, height: displayMaxSide, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      // The thumbnail comes from the display version: decoding 2.5 MP instead of up to 50 again.
      const thumbnail = await sharp(display.data)
        .resize({ width: thumbnailMaxSide, height: thumbnailMaxSide, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer({ resolveWithObject: true });
      return {
        safeName: safeFileStem(originalName),
        display: { bytes: display.data, width: display.info.width, height: display.info.height },
        thumbnail: { bytes: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height },
      };
    } catch {
      // A decoder error (damaged file, HEVC-coded HEIC that this libvips build cannot decode).
      throw unreadable();
    }
  });
}

/** Runs at most `size` tasks at once; the others wait their turn in order. */
function createLimiter(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < size) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the finishing task hands its slot over
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
