import { ApiError } from '@ivory/api';

const ALREADY_EXISTS = 6;

/**
 * A create-bolt failure in the shell's words: a bolt is a repo of project eda, so the
 * platform's "repo … already exists" becomes "bolt … already exists", and "repo" reads "bolt".
 */
export function boltErrorMessage(error: Error, name: string): string {
  if (error instanceof ApiError && error.code === ALREADY_EXISTS)
    return `bolt ${name} already exists`;
  return error.message.replace(/\brepos?\b/gi, (word) =>
    word.toLowerCase() === 'repos' ? 'bolts' : 'bolt',
  );
}
