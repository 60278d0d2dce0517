import { readdirSync, readFileSync } from 'node:fs';

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
