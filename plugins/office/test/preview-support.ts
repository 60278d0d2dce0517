// Helpers the preview, lint and live tests share: reading a PDF with poppler's own tools, and
// waiting for a condition on the machine (a process, a file) without sleeping blindly.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Page count and page size (points) of a PDF, as `pdfinfo` reads them. */
export function pdfInfo(data: Uint8Array, dir: string): { pages: number; width: number; height: number } {
  const file = join(dir, `info-${Date.now()}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, data);
  const out = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(out)?.[1]);
  const size = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(out);
  return { pages, width: Number(size?.[1]), height: Number(size?.[2]) };
}

/** Command lines of the running processes descended from this one (read from /proc). */
export function childProcesses(): string[] {
  const parents = new Map<number, number>();
  const cmdlines = new Map<number, string>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmdlines.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim());
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  return [...cmdlines].filter(([pid]) => descends(pid)).map(([, cmdline]) => cmdline);
}

/** Command lines of every running process that mention `text`, whoever started them (read from /proc). */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(text)) found.push(cmdline);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** The LibreOffice profile directories named on the command lines of this process's soffice children. */
export function sofficeProfiles(): string[] {
  return childProcesses().flatMap((cmdline) => [...cmdline.matchAll(/-env:UserInstallation=file:\/\/(\S+)/g)].map((m) => m[1]!));
}

/** Resolves once `test()` holds, checking every 20 ms; rejects after `timeoutMs` naming `what`. */
export async function waitFor(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
