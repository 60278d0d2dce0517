import { decodePng } from '../src/suite-media';

/** The distinct colours of an 8-bit RGB or RGBA PNG (the suite's own decoder), so a test can tell a render from a blank image. */
export function distinctColours(png: Uint8Array): number {
  const { channels, pixels } = decodePng(png);
  const colours = new Set<number>();
  for (let i = 0; i < pixels.length; i += channels) colours.add(pixels.readUIntBE(i, 3));
  return colours.size;
}
