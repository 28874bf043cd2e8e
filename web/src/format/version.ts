/**
 * A version message as pachctl prints it: `major.minor.micro` then `additional`, which pachd's
 * builds start with a separator (`-ivory`, `-nightly.1`); one without gets a `-` (`rc1` → `-rc1`).
 */
export function formatVersion(version: {
  major: number;
  minor: number;
  micro: number;
  additional?: string;
}): string {
  const base = `${version.major}.${version.minor}.${version.micro}`;
  const additional = version.additional ?? '';
  if (!additional) return base;
  return /^[-.+]/.test(additional) ? `${base}${additional}` : `${base}-${additional}`;
}
