const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * A timestamp for tables: local date and time as `2026-11-23 16:05:09`, or '-' when unset.
 *
 * One fixed, sortable form, written without `Intl`: setting up the browser's date formatter took
 * a screen's first render tens of milliseconds.
 */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '-';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '-';
  const day = `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
  const time = [date.getHours(), date.getMinutes(), date.getSeconds()].map(twoDigits).join(':');
  return `${day} ${time}`;
}
