import type { OpenCascadeInstance } from 'replicad-opencascadejs';
import { getOC, setOC } from 'replicad';

/**
 * The one OpenCascade instance of this thread. Loading it costs about 0.2 s and 0.4 to 0.7 GB, so
 * only the CAD worker calls `loadOcct`, once. OCCT prints STEP statistics on every read and write
 * to stdout: that chatter is dropped (a host speaking MCP over stdout must never see it), and only
 * its error output goes to stderr.
 */
export async function loadOcct(): Promise<OpenCascadeInstance> {
  const { default: init } = await import('replicad-opencascadejs');
  const toStderr = (text: string): void => void process.stderr.write(`${text}\n`);
  const oc = await init({ print: () => undefined, printErr: toStderr });
  setOC(oc);
  return oc;
}

export function occt(): OpenCascadeInstance {
  return getOC();
}

/** The message of anything OCCT or replicad threw: OCCT's C++ exceptions arrive as bare WebAssembly.Exception. */
export function kernelMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  try {
    const [type, message] = occt().getExceptionMessage(error as never);
    return `${type}: ${message}`;
  } catch {
    return String(error);
  }
}
