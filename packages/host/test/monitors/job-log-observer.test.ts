import { jobLogObserver } from '../../src/monitors/observe-job-log';

function observerOf(lastMatch: string): ReturnType<typeof jobLogObserver> {
  const counter = { count: () => ({ matches: 1, lastMatch }) };
  return jobLogObserver({ jobId: 'job_1', pattern: '.', stream: 'stdout' }, { logMatchCounter: async () => counter });
}

describe('job_log observation', () => {
  it('cuts a long matching line to 500 code units', async () => {
    expect(await observerOf('x'.repeat(800)).observe(new AbortController().signal)).toEqual({ matches: 1, lastMatch: 'x'.repeat(500) });
  });

  it('does not cut a character made of two code units in half', async () => {
    // '😀' is a surrogate pair: its first half is the 500th code unit, and is left out with the second.
    const observation = (await observerOf(`${'x'.repeat(499)}😀 and more`).observe(new AbortController().signal)) as { lastMatch: string };
    expect(observation.lastMatch).toBe('x'.repeat(499));
  });
});
