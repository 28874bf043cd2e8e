import { describe, expect, it } from 'vitest';
import { parseCron } from './cron.ts';
import { rewritePfs } from './runner/worker.ts';

describe('cron specs', () => {
  it('handles @every and cron lines (UTC)', () => {
    const start = Date.UTC(2025, 0, 1, 10, 7, 30);
    expect(parseCron('@every 10s').next(start)).toBe(start + 10_000);
    expect(parseCron('@every 1h30m').next(start)).toBe(start + 90 * 60_000);
    expect(parseCron('*/15 * * * *').next(start)).toBe(Date.UTC(2025, 0, 1, 10, 15, 0));
    expect(parseCron('@daily').next(start)).toBe(Date.UTC(2025, 0, 2, 0, 0, 0));
    expect(parseCron('0 9 * * 1').next(start)).toBe(Date.UTC(2025, 0, 6, 9, 0, 0));
    expect(() => parseCron('every minute')).toThrow(/5 or 6 fields/);
  });
});

describe('/pfs rewriting', () => {
  it('replaces /pfs at the start of a word only', () => {
    expect(rewritePfs('cat /pfs/in/* > /pfs/out/x', '/d/pfs')).toBe(
      'cat /d/pfs/in/* > /d/pfs/out/x',
    );
    expect(rewritePfs('/pfs/in', '/d/pfs')).toBe('/d/pfs/in');
    expect(rewritePfs('--dir=/pfs/out', '/d/pfs')).toBe('--dir=/d/pfs/out');
    expect(rewritePfs('/data/pfs/in', '/d/pfs')).toBe('/data/pfs/in');
    expect(rewritePfs('/pfsx', '/d/pfs')).toBe('/pfsx');
  });
});
