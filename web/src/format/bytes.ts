const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** Human-readable size of a byte count (an int64 decimal string or a number). */
export function formatBytes(value: string | number | null | undefined): string {
  let size = Number(value ?? 0);
  if (!Number.isFinite(size) || size <= 0) return '0 B';
  let unit = 0;
  while (size >= 1000 && unit < UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(size < 10 ? 2 : 1)} ${UNITS[unit]}`;
}
