import type { ImageMediaType } from './image';

/**
 * Pixel size of a png, jpeg or gif read from its header, so that exporters can keep an image's
 * aspect ratio; undefined when the header is not where the format puts it.
 */
export function imagePixelSize(data: Buffer, mediaType: ImageMediaType): { width: number; height: number } | undefined {
  if (mediaType === 'image/png') return data.length >= 24 ? { width: data.readUInt32BE(16), height: data.readUInt32BE(20) } : undefined;
  if (mediaType === 'image/gif') return data.length >= 10 ? { width: data.readUInt16LE(6), height: data.readUInt16LE(8) } : undefined;
  return jpegSize(data);
}

/** Walks the jpeg markers to the first start-of-frame (SOF0..SOF15 except DHT, JPG and DAC). */
function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    const length = data.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}
