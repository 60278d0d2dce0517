import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host, type HostOptions } from '../../src/host';

/** A temp directory that removes itself; call `cleanup` in afterEach/afterAll. */
export function tempDir(prefix = 'cowork-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Opens a host over a fresh workspace; `close` closes it and removes the workspace. */
export async function openTempHost(options: Partial<HostOptions> = {}): Promise<Host & { dispose: () => Promise<void> }> {
  const dir = tempDir();
  const host = await Host.open({ workspaceDir: dir.path, ...options });
  return Object.assign(host, {
    dispose: async () => {
      await host.close();
      dir.cleanup();
    },
  });
}

/** Runs `fn` and returns the error it throws (failing the test when it does not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await fn();
  } catch (error) {
    return error as Error & { code?: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the call to throw');
}
