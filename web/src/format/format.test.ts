import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes.ts';
import { formatTimestamp } from './time.ts';

describe('formatBytes', () => {
  it.each([
    ['0', '0 B'],
    [undefined, '0 B'],
    ['999', '999 B'],
    ['1500', '1.50 kB'],
    ['1048576', '1.05 MB'],
    [25_000_000_000, '25.0 GB'],
  ])('%s → %s', (value, expected) => {
    expect(formatBytes(value)).toBe(expected);
  });
});

describe('formatTimestamp', () => {
  it('shows - for unset or invalid values', () => {
    expect(formatTimestamp(null)).toBe('-');
    expect(formatTimestamp('nope')).toBe('-');
    expect(formatTimestamp('2025-01-01T00:00:00Z')).not.toBe('-');
  });

  it('writes the local date and time, zero-padded, to the second', () => {
    const local = new Date(2026, 0, 5, 7, 8, 9, 450);
    expect(formatTimestamp(local.toISOString())).toBe('2026-01-05 07:08:09');
    const evening = new Date(2025, 10, 23, 16, 5, 59);
    expect(formatTimestamp(evening.toISOString())).toBe('2025-11-23 16:05:59');
  });
});
