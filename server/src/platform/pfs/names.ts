import { invalidArgument } from '../../errors.ts';

const namePattern = /^[a-zA-Z0-9_-]+$/;

/** Project, repo and branch names: letters, digits, "_" and "-" only. */
export function validateName(kind: string, name: string): string {
  if (!namePattern.test(name)) {
    throw invalidArgument(
      `${kind} name ${JSON.stringify(name)} is invalid: only letters, digits, "_" and "-" are allowed`,
    );
  }
  return name;
}
