/**
 * Invariant: an exit record decides how a job ended; without one, a job is running only while its
 * recorded supervisor or command is still the same live process, and a job whose processes are
 * gone with no exit record is `uncertain` (or `cancelled` when that was asked), never `succeeded`.
 * A job of another machine is running while a host there runs, whatever its pids say here.
 */
import { judge, STARTUP_GRACE_MS, type JobObservation } from '../../src/jobs/reconcile';
import type { JobRecord } from '../../src/store/job-records';

const AT = '2026-01-01T00:00:10.000Z';
const EXIT = { endedAt: '2026-01-01T00:00:05.000Z' };

const running: JobRecord = {
  id: 'job_1',
  name: null,
  command: 'sleep',
  args: ['1'],
  cwd: '/w',
  env: {},
  status: 'running',
  pid: 100,
  pgid: 100,
  processStartTime: 5,
  supervisorPid: 99,
  supervisorStartTime: 4,
  exitCode: null,
  signal: null,
  error: null,
  createdBy: null,
  taskId: null,
  hostId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:00.500Z',
  endedAt: null,
  cancelRequestedAt: null,
};
const cancelling: JobRecord = { ...running, cancelRequestedAt: '2026-01-01T00:00:03.000Z' };

const gone: JobObservation = { identityKnown: true, supervisorAlive: false, processAlive: false, exit: undefined, ageMs: 60_000 };
/** A job of machine-a seen from another machine: no pid checks, only whether a host runs there. */
const elsewhere = (hostRunning: boolean): JobObservation => ({ ...gone, elsewhere: { hostId: 'machine-a', hostRunning } });

describe('judge', () => {
  it.each([
    ['exit 0', running, { ...gone, exit: { code: 0, signal: null, error: null, ...EXIT } }, { status: 'succeeded', exitCode: 0 }],
    ['exit 7', running, { ...gone, exit: { code: 7, signal: null, error: null, ...EXIT } }, { status: 'failed', exitCode: 7 }],
    ['killed by a signal', running, { ...gone, exit: { code: null, signal: 'SIGKILL', error: null, ...EXIT } }, { status: 'failed', signal: 'SIGKILL' }],
    ['could not start', running, { ...gone, exit: { code: null, signal: null, error: 'ENOENT', ...EXIT } }, { status: 'failed', error: 'ENOENT' }],
    ['exit 0 after a cancel', cancelling, { ...gone, exit: { code: 0, signal: null, error: null, ...EXIT } }, { status: 'cancelled', exitCode: 0 }],
    ['exit record while the supervisor still lives', running, { ...gone, supervisorAlive: true, exit: { code: 0, signal: null, error: null, ...EXIT } }, { status: 'succeeded' }],
    ['gone, no exit record', running, gone, { status: 'uncertain', exitCode: null, endedAt: AT }],
    ['gone after a cancel', cancelling, gone, { status: 'cancelled', exitCode: null }],
    ['never reported, past the startup grace', running, { ...gone, identityKnown: false, ageMs: STARTUP_GRACE_MS }, { status: 'uncertain' }],
    ['on another machine, exit record', running, { ...elsewhere(true), exit: { code: 0, signal: null, error: null, ...EXIT } }, { status: 'succeeded', exitCode: 0 }],
    ['on another machine where no host runs', running, elsewhere(false), { status: 'uncertain', error: expect.stringMatching(/^the job ran on machine-a, where no host runs/) }],
    ['on another machine where no host runs, after a cancel', cancelling, elsewhere(false), { status: 'cancelled', exitCode: null }],
  ] as const)('%s', (_name, record, seen, expected) => {
    expect(judge(record, seen, AT)).toMatchObject(expected);
  });

  it.each([
    ['the supervisor lives', { ...gone, supervisorAlive: true }],
    ['only the command lives (supervisor killed)', { ...gone, processAlive: true }],
    ['still starting', { ...gone, identityKnown: false, ageMs: 1000 }],
    ['on another machine where a host runs (its pids mean nothing here)', elsewhere(true)],
  ])('running while %s', (_name, seen) => {
    expect(judge(running, seen, AT)).toBeUndefined();
  });
});
