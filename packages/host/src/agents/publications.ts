import { createHash } from 'node:crypto';
import { chmodSync, closeSync, constants, fstatSync, fsyncSync, mkdirSync, openSync, readSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { CoworkError } from '../errors';
import type { PublicationRecord } from '../store/publication-records';
import type { Json, Operator } from '../store/records';
import type { Store } from '../store/store';
import { fsyncDir } from '../util/atomic-file';
import { Emitter } from '../util/emitter';
import { newId } from '../util/ids';
import { checkPathText, containedPath, openContained } from '../util/paths';
import { taskPaths } from './task-files';

export type { PublicationRecord };

/** What can be published: a resource's export (at a revision, default the newest) or a file of the task's `work/` folder. */
export type PublishSource = { readonly resourceId: string; readonly format: string; readonly revision?: number } | { readonly file: string };

export interface PublishRequest {
  readonly taskId: string;
  readonly source: PublishSource;
  /** The published file's name (one plain name); default the export's or the file's own. */
  readonly name?: string;
  readonly operator: Operator;
  /** A repeated request with the same key (a resumed tool call, a retried POST) answers the same publication. */
  readonly idempotencyKey?: string;
}

/** `manifest.json` beside the published file: the record, as it was when it was published. */
export interface PublicationManifest {
  readonly id: string;
  readonly taskId: string;
  readonly source: Json;
  readonly revision: number | null;
  readonly commit: string | null;
  readonly sha256: string;
  readonly bytes: number;
  readonly mediaType: string;
  readonly fileName: string;
  readonly publishedAt: string;
  readonly operator: Operator;
}

/** What publishing needs: the store, the workspace, a kind's exports, and which tasks exist. */
export interface PublicationsDeps {
  readonly store: Store;
  readonly workspaceDir: string;
  readonly exports: {
    export(resourceId: string, format: string, options: { revision?: number; signal?: AbortSignal }): Promise<{ data: Uint8Array; mediaType: string; fileName: string; revision: number }>;
  };
  readonly taskExists: (taskId: string) => boolean | Promise<boolean>;
  readonly now?: () => Date;
  /** Most bytes one published file may have (default 256 MiB). */
  readonly maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const MANIFEST = 'manifest.json';

/**
 * A task's published results. `publish` copies what the task delivers (a resource's export at a
 * revision, or a file of `work/`) into `tasks/<id>/published/<pubId>/`, beside a `manifest.json`,
 * then records it. Order makes it crash-safe: the bytes and the manifest are written in a staging
 * folder (each fsynced, read-only), the folder is renamed into place and its parent fsynced, and
 * only then is the record written, in one transaction. Anything refused is refused before a byte
 * is written; a crash before the record leaves an unreferenced folder, never a record without its
 * file. A publication is never overwritten: each gets a new folder, and a repeated request with
 * the same idempotency key answers the first one.
 */
export class Publications {
  private readonly published = new Emitter<PublicationRecord>();
  private readonly now: () => Date;

  constructor(private readonly deps: PublicationsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Called with each new publication (after its record is durable). */
  onPublished(listener: (publication: PublicationRecord) => void): () => void {
    return this.published.subscribe(listener);
  }

  async publish(request: PublishRequest, signal?: AbortSignal): Promise<PublicationRecord> {
    const taskId = await this.requireTask(request.taskId);
    if (request.idempotencyKey !== undefined) {
      const key = request.idempotencyKey;
      const earlier = await this.deps.store.read((tx) => tx.publications.byIdempotencyKey(key));
      if (earlier) return earlier;
    }
    const name = request.name === undefined ? undefined : plainName(request.name, 'name');
    const paths = taskPaths(this.deps.workspaceDir, taskId);
    const item = await this.produce(paths.work, request.source, signal);
    const fileName = name ?? plainName(item.fileName, 'fileName');
    if (fileName === MANIFEST) throw new CoworkError('invalid_input', `a published file may not be named ${MANIFEST}`, { field: 'name', reason: 'reserved' });
    const sha256 = createHash('sha256').update(item.data).digest('hex');
    const source: Json = 'file' in request.source ? { type: 'file', path: item.path!, sha256, bytes: item.data.byteLength } : { type: 'export', resourceId: request.source.resourceId, format: request.source.format, revision: item.revision };
    const record: PublicationRecord = {
      id: newId('pub'),
      taskId,
      source,
      revision: item.revision,
      commit: null,
      fileName,
      mediaType: item.mediaType,
      sha256,
      bytes: item.data.byteLength,
      publishedAt: this.now().toISOString(),
      operator: request.operator,
      idempotencyKey: request.idempotencyKey ?? null,
    };
    mkdirSync(paths.root, { recursive: true });
    const publishedDir = containedPath(paths.root, 'published', 'published', { baseName: "the task's folder" });
    const folder = this.writeFolder(publishedDir, record, item.data);
    let stored: { record: PublicationRecord; created: boolean };
    try {
      stored = await this.deps.store.transaction(async (tx) => {
        const earlier = record.idempotencyKey === null ? undefined : await tx.publications.byIdempotencyKey(record.idempotencyKey);
        if (earlier) return { record: earlier, created: false };
        await tx.publications.insert(record);
        return { record, created: true };
      });
    } catch (error) {
      // Not recorded: the folder is nobody's, so it goes (a crash here would leave it unreferenced).
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    if (!stored.created) {
      rmSync(folder, { recursive: true, force: true });
      return stored.record;
    }
    this.published.emit(record);
    return record;
  }

  /** A task's publications, oldest first (from the store; the disk is not walked). */
  async list(taskId: string): Promise<PublicationRecord[]> {
    const id = await this.requireTask(taskId);
    return this.deps.store.read((tx) => tx.publications.list(id));
  }

  async get(id: string): Promise<PublicationRecord> {
    const found = typeof id === 'string' ? await this.deps.store.read((tx) => tx.publications.get(id)) : undefined;
    if (!found) throw new CoworkError('not_found', `no publication ${JSON.stringify(id)}`, { publicationId: String(id) });
    return found;
  }

  /** The manifest a publication was written with. */
  async manifest(id: string): Promise<PublicationManifest> {
    return manifestOf(await this.get(id));
  }

  /** The published bytes, checked against the recorded SHA-256 (a file changed on disk is an error, never served). */
  async read(id: string): Promise<{ publication: PublicationRecord; data: Buffer }> {
    const publication = await this.get(id);
    const path = this.filePath(publication);
    let data: Buffer;
    try {
      data = readWhole(path, publication.bytes + 1);
    } catch (error) {
      throw new CoworkError('internal', `the file of publication ${publication.id} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { publicationId: publication.id });
    }
    if (createHash('sha256').update(data).digest('hex') !== publication.sha256) {
      throw new CoworkError('internal', `the file of publication ${publication.id} no longer matches its SHA-256; it was changed on disk`, { publicationId: publication.id, path: relative(this.deps.workspaceDir, path) });
    }
    return { publication, data };
  }

  /** Where a publication's file lies. */
  filePath(publication: PublicationRecord): string {
    return join(taskPaths(this.deps.workspaceDir, publication.taskId).published, publication.id, publication.fileName);
  }

  private async requireTask(taskId: string): Promise<string> {
    if (typeof taskId !== 'string' || !(await this.deps.taskExists(taskId))) {
      throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}`, { taskId: String(taskId) });
    }
    return taskId;
  }

  /** The bytes to publish, read or exported whole before anything is written. */
  private async produce(workDir: string, source: PublishSource, signal?: AbortSignal): Promise<{ data: Uint8Array; mediaType: string; fileName: string; revision: number | null; path?: string }> {
    if (typeof source !== 'object' || source === null) throw new CoworkError('invalid_input', 'source must be {resourceId, format, revision} or {file}', { field: 'source' });
    if ('file' in source) {
      const { data, path } = readWorkFile(workDir, source.file, this.deps.maxBytes ?? DEFAULT_MAX_BYTES);
      return { data, mediaType: mediaTypeOf(path), fileName: basename(path), revision: null, path };
    }
    if (typeof source.format !== 'string' || source.format === '') throw new CoworkError('invalid_input', 'source.format must name an export format', { field: 'format' });
    const result = await this.deps.exports.export(source.resourceId, source.format, { revision: source.revision, signal });
    const max = this.deps.maxBytes ?? DEFAULT_MAX_BYTES;
    if (result.data.byteLength > max) {
      throw new CoworkError('content_too_large', `the export is ${result.data.byteLength} bytes; a published file may have at most ${max}`, { bytes: result.data.byteLength, maxBytes: max });
    }
    return { data: result.data, mediaType: result.mediaType, fileName: result.fileName, revision: result.revision };
  }

  /**
   * Writes `published/<id>/` whole: in a staging folder, the file and the manifest each written,
   * fsynced and made read-only, then the folder renamed into place and its parent fsynced.
   */
  private writeFolder(publishedDir: string, record: PublicationRecord, data: Uint8Array): string {
    mkdirSync(publishedDir, { recursive: true });
    const staging = join(publishedDir, `.staging-${record.id}`);
    const folder = join(publishedDir, record.id);
    mkdirSync(staging);
    try {
      writeReadOnly(join(staging, record.fileName), data);
      writeReadOnly(join(staging, MANIFEST), Buffer.from(`${JSON.stringify(manifestOf(record), null, 2)}\n`));
      fsyncDir(staging);
      // A new id never names an existing folder (and rename refuses to replace a folder that has files).
      renameSync(staging, folder);
      fsyncDir(publishedDir);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    return folder;
  }
}

export function manifestOf(p: PublicationRecord): PublicationManifest {
  return {
    id: p.id,
    taskId: p.taskId,
    source: p.source,
    revision: p.revision,
    commit: p.commit,
    sha256: p.sha256,
    bytes: p.bytes,
    mediaType: p.mediaType,
    fileName: p.fileName,
    publishedAt: p.publishedAt,
    operator: p.operator,
  };
}

/** A file of the task's `work/` folder, through the one containment check; refused unless it is a regular file inside `work/`. */
function readWorkFile(workDir: string, given: unknown, maxBytes: number): { data: Buffer; path: string } {
  mkdirSync(workDir, { recursive: true });
  const options = { relative: true, baseName: "the task's work folder" };
  let opened: { fd: number; path: string };
  try {
    opened = openContained(workDir, given, 'file', options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new CoworkError('not_found', `no file ${JSON.stringify(given)} in the task's work folder`, { field: 'file', file: String(given) });
    if (code === 'ELOOP') throw new CoworkError('invalid_input', `file ${JSON.stringify(given)} is a symlink that does not stay in the work folder`, { field: 'file', reason: 'outside_base' });
    throw error;
  }
  try {
    const stat = fstatSync(opened.fd);
    if (!stat.isFile()) throw new CoworkError('invalid_input', `file ${JSON.stringify(given)} is not a regular file`, { field: 'file', reason: 'not_a_file' });
    if (stat.size > maxBytes) throw new CoworkError('content_too_large', `file ${JSON.stringify(given)} is ${stat.size} bytes; a published file may have at most ${maxBytes}`, { field: 'file', bytes: stat.size, maxBytes });
    const data = readFd(opened.fd, maxBytes + 1);
    if (data.byteLength > maxBytes) throw new CoworkError('content_too_large', `file ${JSON.stringify(given)} grew past ${maxBytes} bytes while it was read`, { field: 'file', maxBytes });
    return { data, path: relative(realpathSync(workDir), opened.path) };
  } finally {
    closeSync(opened.fd);
  }
}

function readFd(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(Math.min(1024 * 1024, limit - total + 1));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > limit) break;
  }
  return Buffer.concat(chunks, total);
}

function readWhole(path: string, limit: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readFd(fd, limit);
  } finally {
    closeSync(fd);
  }
}

/** Writes a new file (never over one), fsyncs it and leaves it read-only. */
function writeReadOnly(path: string, data: Uint8Array): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o444);
  try {
    let offset = 0;
    while (offset < data.byteLength) offset += writeSync(fd, data, offset, data.byteLength - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, 0o444);
}

/** One plain file name: no folders, not `.` or `..`. */
function plainName(given: unknown, field: string): string {
  const name = checkPathText(given, field, { relative: true });
  if (name.includes('/') || name === '.' || name === '..' || name.startsWith('.staging-')) {
    throw new CoworkError('invalid_input', `${field} ${JSON.stringify(name)} must be one plain file name`, { field, reason: 'not_a_name' });
  }
  return name;
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.step': 'model/step',
  '.stl': 'model/stl',
};

/** The media type of a file by its extension; application/octet-stream when unknown. */
export function mediaTypeOf(path: string): string {
  return MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}
