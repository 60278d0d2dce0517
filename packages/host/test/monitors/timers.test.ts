/**
 * Invariants: an interval timer emits one event per period; a cron expression fires at exactly the
 * minutes it names (UTC) and an invalid one is `invalid_input` naming its cron field; a timer whose
 * next fire is recorded does not fire again on a restart before it is due; many deadlines share
 * one timer and each fires once, in order.
 */
import { nextCronTime, parseCron } from '../../src/monitors/cron';
import { TimerWheel } from '../../src/monitors/timer-wheel';
import { monitorMessages, monitorWorkspace, nextEvents, type MonitorWorkspace } from './monitor-harness';

const utc = (text: string): Date => new Date(`${text}Z`);
const iso = (d: Date | undefined): string | undefined => d?.toISOString().replace('.000Z', '');

describe('cron', () => {
  it.each([
    ['*/15 * * * *', '2026-03-01T10:07:30', '2026-03-01T10:15:00'],
    ['0 9 * * 1-5', '2026-03-06T09:00:00', '2026-03-09T09:00:00'], // Friday 09:00 -> Monday
    ['30 2 1 * *', '2026-01-31T23:59:00', '2026-02-01T02:30:00'],
    ['0 0 29 2 *', '2026-01-01T00:00:00', '2028-02-29T00:00:00'], // the next leap day
    ['0 12 13 * FRI', '2026-03-01T00:00:00', '2026-03-06T12:00:00'], // day-of-month OR day-of-week
    ['5 4 * JAN,jul SUN', '2026-01-01T00:00:00', '2026-01-04T04:05:00'],
    ['0 0 * * 7', '2026-03-02T00:00:00', '2026-03-08T00:00:00'], // 7 is Sunday
    ['10-20/5 1 * * *', '2026-03-01T01:15:00', '2026-03-01T01:20:00'],
    ['@hourly', '2026-03-01T10:00:00', '2026-03-01T11:00:00'],
    ['59 23 31 12 *', '2026-12-31T23:59:00', '2027-12-31T23:59:00'],
  ])('%s after %s is %s', (expression, after, expected) => {
    expect(iso(nextCronTime(parseCron(expression), utc(after)))).toBe(expected);
  });

  it.each([
    ['61 * * * *', 'minute'],
    ['* 24 * * *', 'hour'],
    ['* * 0 * *', 'day-of-month'],
    ['* * * 13 *', 'month'],
    ['* * * * MON-FUN', 'day-of-week'],
    ['*/0 * * * *', 'minute'],
    ['5-1 * * * *', 'minute'],
    ['0 0 31 2 *', 'day-of-month'],
  ])('refuses %s naming the %s field', (expression, cronField) => {
    expect(() => parseCron(expression)).toThrow(expect.objectContaining({ code: 'invalid_input', details: expect.objectContaining({ field: 'cron', cronField }) }));
  });

  it('refuses the wrong number of fields', () => {
    expect(() => parseCron('* * * *')).toThrow(expect.objectContaining({ code: 'invalid_input', details: expect.objectContaining({ field: 'cron', cronField: null }) }));
  });
});

describe('timer wheel', () => {
  it('fires every key once, earliest first, on one timer', async () => {
    const fired: string[] = [];
    const now = Date.now();
    const done = new Promise<void>((resolve) => {
      const wheel = new TimerWheel((keys) => {
        fired.push(...keys);
        if (fired.length === 40) {
          wheel.stop();
          resolve();
        }
      }, Date.now, 0);
      for (let i = 39; i >= 0; i--) wheel.schedule(`k${i}`, now + 5 + i * 3);
      wheel.schedule('k7', now + 5 + 7 * 3); // rescheduling to the same time does not fire twice
      wheel.schedule('gone', now + 10);
      wheel.remove('gone');
    });
    await done;
    expect(fired).toEqual(Array.from({ length: 40 }, (_, i) => `k${i}`));
  });
});

describe('timer monitors', () => {
  let ws: MonitorWorkspace;
  const TASK = 'task_timers';
  beforeEach(async () => {
    ws = await monitorWorkspace();
  });
  afterEach(() => ws.dispose());

  it('an interval timer emits one event per period', async () => {
    const startedAt = Date.now();
    const monitor = await ws.host.monitors.create({ kind: 'interval', intervalSeconds: 1, name: 'tick' }, { owner: { taskId: TASK } });
    expect(monitor.observation).toEqual({ fires: 0 });
    const events = await nextEvents(ws.host, monitor.id, 2);
    expect(events.map((e) => (e.monitor.observation as { fires: number }).fires)).toEqual([1, 2]);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1900);
    const messages = await monitorMessages(ws.host, TASK, monitor.id);
    expect(messages.map((m) => m.messageId)).toEqual([`monitor:${monitor.id}:1`, `monitor:${monitor.id}:2`]);
    expect(messages[0]!.body).toMatchObject({ summary: expect.stringContaining('fired (1 times)') });
  });

  it('a restart after a fire keeps the count and the recorded next fire', async () => {
    const monitor = await ws.host.monitors.create({ kind: 'interval', intervalSeconds: 1 }, { owner: { taskId: TASK } });
    const [first] = await nextEvents(ws.host, monitor.id);
    const dueAt = Date.parse(first!.monitor.nextDueAt);
    const host = await ws.restart();
    const [second] = await nextEvents(host, monitor.id);
    expect(Date.now()).toBeGreaterThanOrEqual(dueAt - 25);
    expect(second!.monitor.observation).toMatchObject({ fires: 2 });
    expect(second!.monitor.seq).toBe(2);
  });

  it('a timer that is not due does not fire on a check or after a restart', async () => {
    const monitor = await ws.host.monitors.create({ kind: 'cron', cron: '0 0 1 1 *', name: 'new year' }, { owner: { taskId: TASK } });
    expect(Date.parse(monitor.nextDueAt)).toBe(nextCronTime(parseCron('0 0 1 1 *'), new Date(Date.parse(monitor.createdAt)))!.getTime());
    expect((await ws.host.monitors.check(monitor.id)).changed).toBe(false);
    const host = await ws.restart();
    expect((await host.monitors.check(monitor.id)).changed).toBe(false);
    expect(await monitorMessages(host, TASK, monitor.id)).toHaveLength(0);
  });

  it('refuses an invalid cron expression with a coded error', async () => {
    await expect(ws.host.monitors.create({ kind: 'cron', cron: '0 25 * * *' }, { owner: { taskId: TASK } })).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'cron', cronField: 'hour', received: '25' },
    });
    await expect(ws.host.monitors.create({ kind: 'interval' }, { owner: { taskId: TASK } })).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'intervalSeconds' },
    });
  });
});
