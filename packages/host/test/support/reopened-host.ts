import { Host, type HostOptions } from '../../src/host';

/**
 * Opens the workspace a killed host left behind, runs `check` on it, then requires an intact
 * database (SQLite's integrity check finds nothing) and closes it, whatever `check` threw.
 */
export async function checkReopened<T>(workspaceDir: string, check: (host: Host) => Promise<T>, options: Omit<HostOptions, 'workspaceDir'> = {}): Promise<T> {
  const host = await Host.open({ ...options, workspaceDir });
  try {
    const result = await check(host);
    expect(await host.store.integrityCheck()).toEqual([]);
    return result;
  } finally {
    await host.close();
  }
}
