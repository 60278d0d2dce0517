import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Blender processes this process started itself (short-lived ones are its direct children). */
export function childBlenders(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces, so split after its closing parenthesis.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (comm === 'blender' && ppid === process.pid) pids.push(Number(entry));
  }
  return pids;
}

/** Samples `childBlenders` while `run` runs: the most alive at once, and every pid seen. */
export async function watchBlenders<T>(run: () => Promise<T>): Promise<{ result: T; peak: number; started: number }> {
  let peak = 0;
  const seen = new Set<number>();
  const sample = (): void => {
    const pids = childBlenders();
    peak = Math.max(peak, pids.length);
    for (const pid of pids) seen.add(pid);
  };
  const timer = setInterval(sample, 20);
  try {
    const result = await run();
    return { result, peak, started: seen.size };
  } finally {
    clearInterval(timer);
  }
}

/** Resolves once this process has a Blender child running. */
export async function untilABlenderRuns(): Promise<void> {
  while (childBlenders().length === 0) await new Promise((done) => setTimeout(done, 20));
}

/**
 * Blender processes working in `dir` (their working directory is in it: a scene's Blender runs in
 * its resource directory) that are starting: alive, and their bridge does not listen yet. A bridge
 * listens on the socket named by its `--socket` argument (bound as `<socket>.tmp`, then renamed;
 * /proc/net/unix keeps the name it was bound to).
 */
export function startingBlenders(dir: string): number[] {
  const listening = listeningSockets();
  const starting: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      // A fork of Blender about to run another program (it forks briefly while starting) is not a Blender.
      if (comm !== 'blender' || state === 'Z' || isBlender(ppid)) continue;
      if (!`${readlinkSync(`/proc/${entry}/cwd`)}/`.startsWith(`${dir}/`)) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const socket = args[args.indexOf('--socket') + 1];
      if (!socket || !(listening.has(socket) || listening.has(`${socket}.tmp`))) starting.push(Number(entry));
    } catch {
      continue; // ended meanwhile
    }
  }
  return starting;
}

function isBlender(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'blender';
  } catch {
    return false;
  }
}

/** Paths of the listening Unix sockets (flag __SO_ACCEPTCON) in /proc/net/unix. */
function listeningSockets(): Set<string> {
  const paths = new Set<string>();
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 8 && (Number.parseInt(fields[3]!, 16) & 0x10000) !== 0) paths.add(fields.slice(7).join(' '));
  }
  return paths;
}

/** Samples `startingBlenders(dir)` while `run` runs: the most starting at once, and every pid seen starting. */
export async function watchStarts<T>(dir: string, run: () => Promise<T>): Promise<{ result: T; peak: number; started: number }> {
  let peak = 0;
  const seen = new Set<number>();
  const sample = (): void => {
    const pids = startingBlenders(dir);
    peak = Math.max(peak, pids.length);
    for (const pid of pids) seen.add(pid);
  };
  const timer = setInterval(sample, 20);
  try {
    const result = await run();
    sample();
    return { result, peak, started: seen.size };
  } finally {
    clearInterval(timer);
  }
}
