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

/** Problems with an image: not a base64 data URI, a type other than png/jpeg/gif, or too many bytes. */
export function imageProblems(image: Image): string[] {
  const match = DATA_URI.exec(image.src);
  if (!match) return ['image src must be a base64 data URI such as "data:image/png;base64,iVBOR..."'];
  const mediaType = match[1]!.toLowerCase();
  if (!isImageMediaType(mediaType)) return [`image type ${mediaType} is not supported; use ${IMAGE_MEDIA_TYPES.join(', ')}`];
  const body = image.src.slice(match[0].length);
  const bytes = decodedLength(body);
  if (bytes > MAX_IMAGE_BYTES) {
    return [`image is ${megabytes(bytes)} but at most ${megabytes(MAX_IMAGE_BYTES)} is allowed; scale the image down or compress it and try again`];
  }
  if (body.length % 4 !== 0 || !BASE64.test(body)) return ['image src is not valid base64 after "base64,"'];
  if (bytes === 0) return ['image src holds no bytes'];
  return [];
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
