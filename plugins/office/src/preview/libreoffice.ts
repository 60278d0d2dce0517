import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { previewFailed, runProgram } from './run-program';

export const LIBREOFFICE_PACKAGES = 'libreoffice-impress libreoffice-writer';
/** A 30-page document converts in a few seconds; a minute means LibreOffice is stuck. */
export const DEFAULT_CONVERT_TIMEOUT_MS = 60_000;

export interface ConvertOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * Converts an office file (pptx, docx) to PDF with headless LibreOffice and writes it to `pdfPath`.
 * Each conversion gets a fresh user profile, deleted afterwards: two soffice processes sharing one
 * profile block each other, and a profile left by a killed process can hold a lock. Conversions
 * in this process run one at a time (`queue`): each soffice takes most of a core and a few hundred
 * MB, and a burst of exports should wait rather than thrash. Abort kills soffice (or leaves the queue).
 * Files are written, copied and removed asynchronously, so the host's event loop never waits on the disk.
 */
export async function convertToPdf(data: Uint8Array, extension: string, pdfPath: string, options: ConvertOptions): Promise<void> {
  await queue.run(options.signal, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cowork-lo-'));
    try {
      const input = join(dir, `input.${extension}`);
      const outDir = join(dir, 'out');
      await writeFile(input, data);
      await runProgram(
        'soffice',
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
          '--convert-to',
          'pdf',
          '--outdir',
          outDir,
          input,
        ],
        { signal: options.signal, timeoutMs: options.timeoutMs ?? DEFAULT_CONVERT_TIMEOUT_MS, packages: LIBREOFFICE_PACKAGES },
      );
      // soffice exits 0 even when it could not read the file; the missing PDF is the only sign.
      await copyFile(join(outDir, 'input.pdf'), pdfPath).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? previewFailed('no_output', `LibreOffice could not convert the ${extension} file to PDF`) : error;
      });
    } finally {
      // Asynchronously: the profile LibreOffice leaves is hundreds of files, 100 ms and more to remove.
      await rm(dir, { recursive: true, force: true });
    }
  });
}

/**
 * Runs tasks one at a time in arrival order. A caller whose signal aborts while waiting leaves at
 * once and its task never starts; a running task sees the same signal and ends itself (so its
 * clean-up is done before the caller hears of the abort).
 */
class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    let started = false;
    const ran = this.tail.then(() => {
      signal.throwIfAborted();
      started = true;
      return task();
    });
    this.tail = ran.then(ignore, ignore);
    return new Promise((resolve, reject) => {
      const leave = (): void => {
        if (!started) reject(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      ran.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }
}

function ignore(): void {}

// One queue per process: LibreOffice is a machine resource, not a per-host one.
const queue = new SerialQueue();
