/**
 * An image shared by presentations and documents, carried inline as a base64 data URI so that a
 * content stays one self-contained JSON value. Size is bounded on the decoded bytes.
 */
export type Image = {
  /** `data:image/png;base64,...` (png, jpeg or gif). */
  src: string;
  /** What the image shows, for people who cannot see it; also what summaries print. */
  alt: string;
  /** Shown size in inches; missing means the exporter picks one that fits. */
  widthIn?: number;
  heightIn?: number;
};

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** The most decoded bytes one image may have. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const IMAGE_SCHEMA = {
  type: 'object',
  properties: {
    src: { type: 'string', pattern: '^data:' },
    alt: { type: 'string' },
    widthIn: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
    heightIn: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
  },
  required: ['src', 'alt'],
  additionalProperties: false,
} as const;

const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Problems with an image: not a base64 data URI, a type other than png/jpeg/gif, or too many bytes.
 * Runs on every save of every content with pictures (the host checks the whole content), so it is
 * kept cheap: see `isBase64` and `CHECKED`.
 */
export function imageProblems(image: Image): string[] {
  const src = image.src;
  const known = CHECKED.get(src);
  if (known) return [...known];
  const problems = srcProblems(src);
  if (src.length >= MIN_CACHED_CHARS) remember(src, [...problems]);
  return problems;
}

function srcProblems(src: string): string[] {
  const match = DATA_URI.exec(src);
  if (!match) return ['image src must be a base64 data URI such as "data:image/png;base64,iVBOR..."'];
  const mediaType = match[1]!.toLowerCase();
  if (!isImageMediaType(mediaType)) return [`image type ${mediaType} is not supported; use ${IMAGE_MEDIA_TYPES.join(', ')}`];
  const body = src.slice(match[0].length);
  const bytes = decodedLength(body);
  if (bytes > MAX_IMAGE_BYTES) {
    return [`image is ${megabytes(bytes)} but at most ${megabytes(MAX_IMAGE_BYTES)} is allowed; scale the image down or compress it and try again`];
  }
  if (!isBase64(body)) return ['image src is not valid base64 after "base64,"'];
  if (bytes === 0) return ['image src holds no bytes'];
  return [];
}

/**
 * Whether `body` matches `BASE64` with a length that is a multiple of 4, found without running the
 * pattern over it: the pattern walks megabytes at about 12 ms per MB (40-200 ms per save of a deck
 * with pictures), while Node decodes and encodes base64 natively at about 2.5 ms per MB. Every group
 * of 4 before the last is 4 characters of the alphabet exactly when the bytes Node decodes from it
 * encode back to the same text (Node's decoder skips or maps characters outside the alphabet, and
 * its encoder writes only alphabet characters, so any such character makes the two differ); the
 * last group, which may end in padding, is matched by the pattern itself.
 */
function isBase64(body: string): boolean {
  if (body.length % 4 !== 0) return false;
  if (body.length === 0) return true;
  const whole = body.length - 4;
  const decoded = Buffer.from(body, 'base64');
  return decoded.byteLength >= (whole / 4) * 3 && decoded.subarray(0, (whole / 4) * 3).toString('base64') === body.slice(0, whole) && BASE64.test(body.slice(whole));
}

/**
 * The problems of recently checked large sources. A save checks the whole content, pictures that
 * did not change included; finding a source here costs a comparison of its text (about 0.2 ms per
 * MB) instead of decoding it again. Strings shorter than `MIN_CACHED_CHARS` are cheap to check and
 * not kept; the kept ones are at most `MAX_CACHED_CHARS` characters together (the host's head cache
 * usually holds the same strings), the oldest leaving first.
 */
const CHECKED = new Map<string, readonly string[]>();
const MIN_CACHED_CHARS = 16 * 1024;
const MAX_CACHED_CHARS = 32 * 1024 * 1024;
let cachedChars = 0;

function remember(src: string, problems: readonly string[]): void {
  if (src.length > MAX_CACHED_CHARS) return;
  CHECKED.set(src, problems);
  cachedChars += src.length;
  for (const [old] of CHECKED) {
    if (cachedChars <= MAX_CACHED_CHARS) break;
    CHECKED.delete(old);
    cachedChars -= old.length;
  }
}

/** The bytes and media type of a data URI that `imageProblems` accepted. */
export function decodeImage(src: string): { mediaType: ImageMediaType; data: Buffer } {
  const match = DATA_URI.exec(src);
  const mediaType = match?.[1]?.toLowerCase();
  if (!match || !mediaType || !isImageMediaType(mediaType)) throw new Error('not a png, jpeg or gif data URI');
  return { mediaType, data: Buffer.from(src.slice(match[0].length), 'base64') };
}

function isImageMediaType(value: string): value is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
}

/** Decoded size from base64 length, without decoding (a 50 MB image is never copied). */
function decodedLength(body: string): number {
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  return Math.floor((body.length * 3) / 4) - padding;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
