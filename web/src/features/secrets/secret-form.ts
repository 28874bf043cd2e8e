/** Kubernetes object names: lower-case letters, digits, '-' and '.', at most 253 characters. */
export const SECRET_NAME_PATTERN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
/** Secret keys: letters, digits, '-', '_' and '.'. */
export const SECRET_KEY_PATTERN = /^[-._a-zA-Z0-9]+$/;

export interface SecretPair {
  key: string;
  value: string;
}

/** The problem with a new secret's name and pairs, or null when it can be created. */
export function secretFormError(name: string, pairs: readonly SecretPair[]): string | null {
  if (!SECRET_NAME_PATTERN.test(name) || name.length > 253)
    return 'The name must be lower-case letters, digits, "-" or "." (like a Kubernetes name)';
  const filled = pairs.filter((p) => p.key !== '' || p.value !== '');
  if (filled.length === 0) return 'Add at least one key and value';
  const seen = new Set<string>();
  for (const pair of filled) {
    if (!SECRET_KEY_PATTERN.test(pair.key)) return `Invalid key "${pair.key}"`;
    if (seen.has(pair.key)) return `The key "${pair.key}" is given twice`;
    seen.add(pair.key);
  }
  return null;
}
