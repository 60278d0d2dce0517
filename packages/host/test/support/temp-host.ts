export { openTempHost, tempDir, type TempHost } from '../../src/testkit/temp-host';

/** Runs `fn` and returns the error it throws (failing the test when it does not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await fn();
  } catch (error) {
    return error as Error & { code?: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the call to throw');
}
