import { constants, crc32, deflateRawSync } from 'node:zlib';

export type ForgedEntry = {
  name: string;
  /** What the entry holds; deflated unless `compressed` gives the stored bytes. */
  data?: Uint8Array | string;
  /** The entry's bytes as stored in the zip (a cut or hand-made deflate stream). */
  compressed?: Uint8Array;
  /** What both headers declare; the truth by default. */
  size?: number;
  crc?: number;
  /** Stored (method 0) instead of deflated. */
  stored?: boolean;
};

/**
 * A zip of `entries` with their local headers, central directory and end record, built byte by byte
 * so that a test can make the headers lie: a declared size or CRC-32 that is not the data's, a
 * deflate stream cut short, a bomb of zeros whose header claims a few bytes. For testing an
 * importer against the files people (and attackers) bring.
 */
export function forgeZip(entries: ForgedEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : Buffer.from(entry.data ?? []);
    const body = Buffer.from(entry.compressed ?? (entry.stored ? data : deflateRawSync(data)));
    const name = Buffer.from(entry.name);
    const method = entry.stored ? 0 : 8;
    const crc = entry.crc ?? crc32(data);
    const size = entry.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    directory.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const central = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, central, end]);
}

/**
 * A raw deflate stream of `mebibytes` MiB of zeros, about 1 KiB per MiB: one fully flushed MiB
 * (which ends on a byte boundary and refers to nothing before it) repeated, then an empty final block.
 */
export function zeroBomb(mebibytes: number): Uint8Array {
  const mebibyte = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array<Buffer>(mebibytes).fill(mebibyte), deflateRawSync(Buffer.alloc(0))]);
}
