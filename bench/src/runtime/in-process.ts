import { windowFromNow, type Timing } from '../clock';
import type { TargetSpec } from './commit-target';
import { documentFor, openTarget } from './targets';
import { runWriter, type WriterResult } from './writer-loop';

/**
 * N async writers in one process sharing one connection: the shape of one host serving many agents.
 * Neither implementation runs two commits at once here. The host's store queues transactions on its
 * connection behind a FIFO mutex, and the raw loop's driver is synchronous, so its writers only
 * interleave between commits. The figures show what that one connection sustains under N callers.
 */
export async function runInProcess(spec: TargetSpec, writers: number, timing: Timing): Promise<WriterResult[]> {
  const target = await openTarget(spec);
  try {
    const window = windowFromNow(timing);
    return await Promise.all(Array.from({ length: writers }, (_, i) => runWriter(target, documentFor(spec, i), `w${i + 1}`, window)));
  } finally {
    await target.close();
  }
}
