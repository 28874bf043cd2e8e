import { describe, expect, it } from 'vitest';
import { durationSeconds, formatDuration } from './states.tsx';

describe('formatDuration', () => {
  it('shows a time under a second in milliseconds, not as 0s', () => {
    expect(formatDuration(durationSeconds('0.049s'))).toBe('49ms');
    expect(formatDuration(0.0004)).toBe('1ms');
    expect(formatDuration(0.9994)).toBe('999ms');
    expect(formatDuration(0)).toBe('0s');
  });

  it('shows seconds, minutes and hours above', () => {
    expect(formatDuration(0.9996)).toBe('1s');
    expect(formatDuration(2.54)).toBe('2.5s');
    expect(formatDuration(63)).toBe('1m 3s');
    expect(formatDuration(3 * 3600 + 120)).toBe('3h 2m');
    expect(formatDuration(null)).toBe('-');
  });
});
