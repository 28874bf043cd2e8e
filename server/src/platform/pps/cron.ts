import { invalidArgument } from '../../errors.ts';

/**
 * A small cron parser: "@every <n>s|m|h" (also "1h30m"), "@hourly", "@daily", "@weekly",
 * "@monthly", "@yearly", and 5-field (minute hour day month weekday) or 6-field (with seconds
 * first) lines with `*`, `a-b`, `a,b`, `/n`. Times are UTC.
 */
export interface CronSchedule {
  /** The first tick strictly after `after` (ms since the epoch). */
  next(after: number): number;
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function parseEvery(text: string): number {
  let total = 0;
  let rest = text.trim();
  while (rest) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (!match)
      throw invalidArgument(`cron spec "@every ${text}" is not a duration like 10s or 1h30m`);
    total += Number(match[1]) * (units[match[2] as string] as number);
    rest = rest.slice(match[0].length);
  }
  if (total < 1000) throw invalidArgument('cron "@every" needs at least 1s');
  return total;
}

function parseField(field: string, min: number, max: number, name: string): Set<number> {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let lo = min;
    let hi = max;
    if (range !== '*') {
      const [a, b] = range.split('-');
      lo = Number(a);
      hi = b === undefined ? (stepText === undefined ? lo : max) : Number(b);
    }
    if (![lo, hi, step].every(Number.isInteger) || lo < min || hi > max || lo > hi || step < 1)
      throw invalidArgument(`cron field ${name} "${field}" is invalid`);
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return values;
}

const aliases: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export function parseCron(spec: string): CronSchedule {
  const text = spec.trim();
  if (text.startsWith('@every')) {
    const interval = parseEvery(text.slice('@every'.length));
    return { next: (after) => after + interval };
  }
  const fields = (aliases[text] ?? text).split(/\s+/);
  if (fields.length === 5) fields.unshift('0');
  if (fields.length !== 6)
    throw invalidArgument(`cron spec "${spec}" needs 5 or 6 fields, or @every <duration>`);
  const [sec, min, hour, day, month, weekday] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const seconds = parseField(sec, 0, 59, 'second');
  const minutes = parseField(min, 0, 59, 'minute');
  const hours = parseField(hour, 0, 23, 'hour');
  const days = parseField(day, 1, 31, 'day');
  const months = parseField(month, 1, 12, 'month');
  const weekdays = parseField(weekday.replace(/7/g, '0'), 0, 6, 'weekday');
  return {
    next(after) {
      let t = Math.floor(after / 1000) * 1000 + 1000;
      const limit = after + 5 * 366 * 24 * 3_600_000;
      while (t < limit) {
        const d = new Date(t);
        if (!months.has(d.getUTCMonth() + 1)) {
          t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
          continue;
        }
        if (!days.has(d.getUTCDate()) || !weekdays.has(d.getUTCDay())) {
          t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
          continue;
        }
        if (!hours.has(d.getUTCHours())) {
          t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
          continue;
        }
        if (!minutes.has(d.getUTCMinutes())) {
          t += 60_000 - d.getUTCSeconds() * 1000;
          continue;
        }
        if (!seconds.has(d.getUTCSeconds())) {
          t += 1000;
          continue;
        }
        return t;
      }
      throw invalidArgument(`cron spec "${spec}" never fires`);
    },
  };
}
