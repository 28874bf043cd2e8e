/**
 * A duration as Go prints one (time.Duration's String), which pachd's log lines carry:
 * `850µs`, `12.5ms`, `1.5s`, `2m3.5s`, `1h0m0s`.
 */
export function goDuration(ms: number): string {
  if (ms <= 0) return '0s';
  const trim = (value: number, digits: number) =>
    value.toFixed(digits).replace(/\.?0+$/, '') || '0';
  if (ms < 1) return `${trim(ms * 1000, 3)}µs`;
  if (ms < 1000) return `${trim(ms, 6)}ms`;
  const seconds = ms / 1000;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = `${trim(seconds % 60, 9)}s`;
  if (hours > 0) return `${hours}h${minutes}m${rest}`;
  if (minutes > 0) return `${minutes}m${rest}`;
  return rest;
}
