import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host, type HostOptions } from '../host';

/** A host over a fresh temporary workspace (`dir`); `dispose` closes it and removes the workspace. */
export type TempHost = Host & { readonly dir: string; dispose(): Promise<void> };

/** A temp directory that removes itself; call `cleanup` in afterEach/afterAll. */
export function tempDir(prefix = 'cowork-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // Retries: a job's detached supervisor may still be writing its exit record as the test ends.
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 10 }) };
}

export interface TempHostOptions extends Partial<HostOptions> {
  /** The temporary folder's name starts with this. */
  readonly prefix?: string;
  /**
   * How `dispose` closes the host before removing the workspace (default `host.close()`): a plugin
   * whose processes outlive a host on purpose (Blender) stops them here.
   */
  readonly closeHost?: (host: Host) => Promise<void>;
}

/**
 * Opens a host over a fresh workspace, for tests and benchmarks of plugins:
 * `const host = await openTempHost({ plugins: [plugin] })`, then `await host.dispose()`.
 */
export async function openTempHost(options: TempHostOptions = {}): Promise<TempHost> {
  const { prefix, closeHost = (h: Host) => h.close(), ...hostOptions } = options;
  const dir = tempDir(prefix);
  let host: Host;
  try {
    host = await Host.open({ workspaceDir: dir.path, ...hostOptions });
  } catch (error) {
    dir.cleanup();
    throw error;
  }
  return Object.assign(host, {
    dir: dir.path,
    dispose: async () => {
      await closeHost(host);
      dir.cleanup();
    },
  });
}
