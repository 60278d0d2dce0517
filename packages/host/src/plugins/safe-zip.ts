/**
 * A zip reader for files people bring, which believes none of the archive's headers. The directory
 * is read first and gives each entry's declared size; an entry is inflated only when that size fits
 * the caller's limits, off the main thread (zlib in libuv's pool), and inflation stops at the
 * declared size: an entry that inflates to more or less than its header says, whose CRC-32 differs,
 * or whose data is cut short is refused as `invalid_file`, never silently cut or grown. So memory is
 * bounded by the limits, whatever the headers claim. Sizes over a limit are `content_too_large`.
 *
 * Plugins that import zip-based formats (web apps, pptx, docx) read them with this.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { crc32, inflateRaw, type ZlibOptions } from 'node:zlib';
import { CoworkError } from '../errors';
import { rejectFile } from './define-plugin';

const inflateRawAsync = promisify<Uint8Array, ZlibOptions, Buffer>(inflateRaw);

/** One entry as the central directory lists it. */
export type ZipEntry = {
  readonly name: string;
  /** Declared uncompressed size; `read` refuses an entry whose bytes differ from it. */
  readonly size: number;
  readonly compressedSize: number;
  /** 0 stored, 8 deflated; others are refused when read. */
  readonly method: number;
  readonly encrypted: boolean;
  readonly crc: number;
  readonly localOffset: number;
};

export type ZipLimits = {
  /** Most bytes one entry may inflate to. */
  readonly maxEntryBytes: number;
  /** Most bytes the entries read from one archive may inflate to, together. */
  readonly maxTotalBytes: number;
  /** Most entries the directory may list (each costs memory before anything is read). */
  readonly maxEntries?: number;
};

/** The bytes are not a zip archive, or its directory is damaged; the caller says so in its own words. */
export class ZipFormatError extends Error {}

const DEFAULT_MAX_ENTRIES = 10_000;
const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export class SafeZip {
  private readonly byName: ReadonlyMap<string, ZipEntry>;
  private readonly reads = new Map<string, Promise<Uint8Array>>();
  /** Declared sizes of the entries read so far: reserved before inflating, which cannot pass them. */
  private reserved = 0;

  private constructor(
    private readonly data: Uint8Array,
    readonly entries: readonly ZipEntry[],
    private readonly limits: ZipLimits,
    /** How messages name the archive: "app.zip", "the .docx". */
    private readonly label: string,
  ) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  /** Reads the directory; throws `ZipFormatError` for bytes that are not a readable zip. */
  static open(data: Uint8Array, limits: ZipLimits, label: string): SafeZip {
    return new SafeZip(data, readDirectory(data, limits.maxEntries ?? DEFAULT_MAX_ENTRIES, label), limits, label);
  }

  entry(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** The entry's bytes, checked against its declared size and CRC-32; each entry is inflated once. */
  read(entry: ZipEntry): Promise<Uint8Array> {
    let read = this.reads.get(entry.name);
    if (!read) {
      this.reserve(entry);
      read = this.inflate(entry);
      this.reads.set(entry.name, read);
    }
    return read;
  }

  /** The entry's text (UTF-8), or undefined when the archive has no entry `name`. */
  async text(name: string): Promise<string | undefined> {
    const entry = this.entry(name);
    return entry && new TextDecoder('utf-8').decode(await this.read(entry));
  }

  private reserve(entry: ZipEntry): void {
    const { maxEntryBytes, maxTotalBytes } = this.limits;
    const details = { entry: entry.name, bytes: entry.size };
    if (entry.size > maxEntryBytes) {
      throw new CoworkError('content_too_large', `${this.label}: ${entry.name} unpacks to ${entry.size} bytes; at most ${maxEntryBytes} are read from one entry`, { ...details, limit: maxEntryBytes });
    }
    if (this.reserved + entry.size > maxTotalBytes) {
      throw new CoworkError('content_too_large', `${this.label} unpacks to more than ${maxTotalBytes} bytes (${entry.name} adds ${entry.size} to ${this.reserved}); that is more than an import may hold`, { ...details, limit: maxTotalBytes });
    }
    this.reserved += entry.size;
  }

  private async inflate(entry: ZipEntry): Promise<Uint8Array> {
    const damaged = (why: string): CoworkError => rejectFile(`${this.label} is damaged or forged: its entry ${entry.name} ${why}`, { entry: entry.name });
    if (entry.encrypted) throw rejectFile(`${this.label}: its entry ${entry.name} is encrypted; save it without a password and retry`, { entry: entry.name });
    const body = compressedBytes(this.data, entry, damaged);
    let bytes: Uint8Array;
    if (entry.method === 0) {
      // Stored entries need no inflating; a turn of the event loop still keeps a file of many parts from holding it throughout.
      await nextTurn();
      bytes = body;
    } else if (entry.method === 8) {
      try {
        // Inflating past the declared size stops at once (maxOutputLength), so a lying header costs no memory.
        bytes = await inflateRawAsync(body, { maxOutputLength: Math.max(1, entry.size), chunkSize: 64 * 1024 });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'ERR_BUFFER_TOO_LARGE') throw damaged(`inflates to more than the ${entry.size} bytes its header declares`);
        throw damaged(`has compressed data that is damaged or cut short (${error instanceof Error ? error.message : String(error)})`);
      }
    } else {
      throw rejectFile(`${this.label}: its entry ${entry.name} uses compression method ${entry.method}; only stored and deflated entries can be read`, { entry: entry.name, method: entry.method });
    }
    if (bytes.byteLength !== entry.size) throw damaged(`holds ${bytes.byteLength} bytes but its header declares ${entry.size}`);
    if (crc32(bytes) >>> 0 !== entry.crc) throw damaged('does not match its CRC-32 checksum');
    return bytes;
  }
}

/** The entry's stored bytes, after its local header; refused when they run past the archive. */
function compressedBytes(data: Uint8Array, entry: ZipEntry, damaged: (why: string) => CoworkError): Uint8Array {
  const view = viewOf(data);
  const at = entry.localOffset;
  if (at + 30 > data.byteLength || view.getUint32(at, true) !== LOCAL) throw damaged('has no local header where the directory says');
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > data.byteLength) throw damaged('is cut short: its data runs past the end of the archive');
  return data.subarray(start, start + entry.compressedSize);
}

function viewOf(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/** The central directory's entries, after the end-of-directory record (zip64 included). */
function readDirectory(data: Uint8Array, maxEntries: number, label: string): ZipEntry[] {
  const view = viewOf(data);
  const end = findEnd(view);
  if (end < 0) throw new ZipFormatError('it has no zip directory: it is not a zip archive, or it is cut short');
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) throw new ZipFormatError('it is one part of a multi-part archive');
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) [count, offset] = zip64Directory(view, end);
  if (count > maxEntries) {
    throw new CoworkError('content_too_large', `${label} lists ${count} entries; at most ${maxEntries} are read`, { entries: count, limit: maxEntries });
  }
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== CENTRAL) throw new ZipFormatError(`its directory is damaged at entry ${i + 1} of ${count}`);
    const flags = view.getUint16(offset + 8, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const next = offset + 46 + nameLength + extraLength + view.getUint16(offset + 32, true);
    if (next > end) throw new ZipFormatError(`its directory is damaged at entry ${i + 1} of ${count}`);
    // Names are decoded as UTF-8 whatever the flag says, as most zip tools and JSZip do.
    const name = new TextDecoder('utf-8').decode(data.subarray(offset + 46, offset + 46 + nameLength));
    if (names.has(name)) throw new ZipFormatError(`it lists ${JSON.stringify(name)} twice`);
    names.add(name);
    const sizes = {
      size: view.getUint32(offset + 24, true),
      compressedSize: view.getUint32(offset + 20, true),
      localOffset: view.getUint32(offset + 42, true),
    };
    readZip64Extra(view, offset + 46 + nameLength, extraLength, sizes);
    entries.push({ name, method: view.getUint16(offset + 10, true), encrypted: (flags & 1) !== 0, crc: view.getUint32(offset + 16, true), ...sizes });
    offset = next;
  }
  return entries;
}

/** Where the end-of-directory record starts (searched backwards past a comment of up to 64 KiB), or -1. */
function findEnd(view: DataView): number {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) !== EOCD) continue;
    const size = view.getUint32(at + 12, true);
    const offset = view.getUint32(at + 16, true);
    const fits = at + 22 + view.getUint16(at + 20, true) <= view.byteLength;
    if (fits && (offset === 0xffffffff || offset + size <= at)) return at;
  }
  return -1;
}

/** Entry count and directory offset from the zip64 end record the locator before `end` points to. */
function zip64Directory(view: DataView, end: number): [number, number] {
  const locator = end - 20;
  if (locator < 0 || view.getUint32(locator, true) !== EOCD64_LOCATOR) throw new ZipFormatError('its zip64 directory locator is missing');
  const record = safeNumber(view.getBigUint64(locator + 8, true));
  if (record + 56 > locator || view.getUint32(record, true) !== EOCD64) throw new ZipFormatError('its zip64 directory record is missing');
  return [safeNumber(view.getBigUint64(record + 32, true)), safeNumber(view.getBigUint64(record + 48, true))];
}

/** Replaces the 32-bit sizes and offset that say 0xffffffff with the 64-bit ones of the zip64 extra field. */
function readZip64Extra(view: DataView, start: number, length: number, sizes: { size: number; compressedSize: number; localOffset: number }): void {
  for (let at = start; at + 4 <= start + length; ) {
    const id = view.getUint16(at, true);
    const fieldLength = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      for (const key of ['size', 'compressedSize', 'localOffset'] as const) {
        if (sizes[key] !== 0xffffffff) continue;
        if (field + 8 > at + 4 + fieldLength) throw new ZipFormatError('an entry has a damaged zip64 field');
        sizes[key] = safeNumber(view.getBigUint64(field, true));
        field += 8;
      }
      return;
    }
    at += 4 + fieldLength;
  }
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError('it declares a size or offset no file can have');
  return Number(value);
}
