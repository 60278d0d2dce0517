import { CoworkError } from '../errors';

/**
 * A parsed five-field cron expression: minute, hour, day of month, month, day of week. Times are
 * UTC. Day of month and day of week follow Vixie cron: when both are restricted (neither starts
 * with `*`), a day matches if either matches.
 */
export interface CronSchedule {
  readonly expression: string;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  /** 0 is Sunday (7 is accepted for it too). */
  readonly daysOfWeek: ReadonlySet<number>;
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
}

/** The cron field names as errors report them (`details.cronField`). */
export type CronField = 'minute' | 'hour' | 'day-of-month' | 'month' | 'day-of-week';

interface FieldSpec {
  readonly name: CronField;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day-of-week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** How far ahead `nextCronTime` looks: a leap day fires every 4 years, so 8 always finds one. */
const SEARCH_YEARS = 8;

/**
 * Parses a cron expression (five fields, or a macro like `@daily`). A malformed one is
 * `invalid_input` with `details.field` `cron` and `details.cronField` naming the bad field; so is
 * one that can never fire (`0 0 31 2 *`).
 */
export function parseCron(expression: string): CronSchedule {
  if (typeof expression !== 'string') throw invalidCron('cron must be a string', { cronField: null, received: String(expression) });
  const text = expression.trim();
  const fields = (MACROS[text.toLowerCase()] ?? text).split(/\s+/);
  if (fields.length !== 5) {
    throw invalidCron(`a cron expression has 5 fields (minute hour day-of-month month day-of-week); ${JSON.stringify(expression)} has ${fields.length}`, {
      cronField: null,
      received: expression,
    });
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = FIELDS.map((spec, i) => parseField(fields[i]!, spec)) as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (daysOfWeek.delete(7)) daysOfWeek.add(0);
  const schedule: CronSchedule = {
    expression: text,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    dayOfMonthRestricted: !fields[2]!.startsWith('*'),
    dayOfWeekRestricted: !fields[4]!.startsWith('*'),
  };
  if (nextCronTime(schedule, new Date(Date.UTC(2000, 0, 1))) === undefined) {
    throw invalidCron(`cron expression ${JSON.stringify(expression)} never fires (no such day in its months)`, {
      cronField: 'day-of-month',
      received: fields[2]!,
    });
  }
  return schedule;
}

/** The first minute strictly after `after` that the schedule matches (UTC); undefined if none within 8 years. */
export function nextCronTime(schedule: CronSchedule, after: Date): Date | undefined {
  const t = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
  const limit = t.getUTCFullYear() + SEARCH_YEARS;
  while (t.getUTCFullYear() <= limit) {
    if (!schedule.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(schedule, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!schedule.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    } else if (!schedule.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
    } else {
      return t;
    }
  }
  return undefined;
}

function dayMatches(schedule: CronSchedule, t: Date): boolean {
  const dom = schedule.daysOfMonth.has(t.getUTCDate());
  const dow = schedule.daysOfWeek.has(t.getUTCDay());
  if (schedule.dayOfMonthRestricted && schedule.dayOfWeekRestricted) return dom || dow;
  return dom && dow;
}

/** One field: `*`, `n`, `a-b`, each optionally `/step`, joined by commas; names for months and weekdays. */
function parseField(text: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/i.exec(part);
    if (!match) throw badField(spec, text, `${JSON.stringify(part)} is not a value, a range or a step`);
    const [, range, stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isSafeInteger(step) || step < 1) throw badField(spec, text, `step ${JSON.stringify(stepText)} must be a positive integer`);
    let from = spec.min;
    let to = spec.max;
    if (range !== '*') {
      const [a, b] = range!.split('-');
      from = value(a!, spec, text);
      // `5/15` means from 5 to the end, every 15; a plain `5` is just 5.
      to = b !== undefined ? value(b, spec, text) : stepText !== undefined ? spec.max : from;
      if (from > to) throw badField(spec, text, `range ${range} runs backwards`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

function value(text: string, spec: FieldSpec, field: string): number {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + (spec.name === 'month' ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < spec.min || n > spec.max) {
    throw badField(spec, field, `${JSON.stringify(text)} is outside ${spec.min}-${spec.max}`);
  }
  return n;
}

function badField(spec: FieldSpec, text: string, why: string): CoworkError {
  return invalidCron(`cron ${spec.name} field ${JSON.stringify(text)}: ${why}`, { cronField: spec.name, received: text });
}

function invalidCron(message: string, details: { cronField: CronField | null; received: string }): CoworkError {
  return new CoworkError('invalid_input', message, { field: 'cron', ...details });
}
