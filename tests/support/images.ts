import sharp from 'sharp';

// Test images made in memory with sharp: real files of each kind the photo upload must accept or
// refuse, so the tests exercise the same decoders as production.

/** A GPS position in EXIF form (Bluffton, SC), the kind of data that must never leave the server. */
const gps = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '32/1 14/1 3000/100',
  GPSLongitudeRef: 'W',
  GPSLongitude: '80/1 51/1 4500/100',
};

const xmp =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Pat Homeowner</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

/**
 * A phone-like JPEG, 400 wide and 200 high as stored, with EXIF orientation 6 (shown rotated 90°,
 * so 200 x 400), camera make and GPS position, an XMP packet and a Display P3 ICC profile.
 */
export async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: '#3a6ea5' } })
    .jpeg({ quality: 90 })
    .withIccProfile('p3')
    .withXmp(xmp)
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'TestPhone', Model: 'Camera 1' }, IFD3: gps })
    .toBuffer();
}

/** True when an EXIF block holds a GPS IFD pointer (tag 0x8825, either byte order). */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

/** A PNG with transparency, bigger than the display size (2400 x 1200). */
export async function png(width = 2400, height = 1200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 40, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

export async function webp(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#20a060' } })
    .webp()
    .toBuffer();
}

/** A real image of 10,000 x 5,001 pixels (just over 50 megapixels); grey, so it encodes fast and small. */
export async function overFiftyMegapixels(): Promise<Buffer> {
  const width = 10_000;
  const height = 5_001;
  return sharp(Buffer.alloc(width * height, 180), { raw: { width, height, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A valid JPEG start followed by padding: `bytes` long in all (over 15 MB for the size test). */
export async function largeJpeg(bytes: number): Promise<Buffer> {
  const start = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#777777' } })
    .jpeg()
    .toBuffer();
  return Buffer.concat([start, Buffer.alloc(bytes - start.length, 0x20)]);
}

/**
 * An ISO-BMFF 'heic' file (what iPhones send) whose content this libvips cannot decode: the type
 * check accepts it, the decoder fails.
 */
export function undecodableHeic(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypheic', 4, 'latin1');
  ftyp.writeUInt32BE(0, 12);
  ftyp.write('mif1heic', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(512, 0x11)]);
}

/** A file as the browser would send it in a multipart form. */
export type UploadFile = { name: string; bytes: Buffer; type?: string; field?: string };

/** A multipart/form-data body and its content type, serialised the way a browser's FormData is. */
export async function multipartBody(files: UploadFile[], fields: Record<string, string> = {}): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append(file.field ?? 'photos', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}
