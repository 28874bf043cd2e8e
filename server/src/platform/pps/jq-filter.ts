import { createRequire } from 'node:module';
import type { Jq, JqError } from 'jq-web';
import { invalidArgument } from '../../errors.ts';

/**
 * The `jqFilter` of ListJob, ListJobSet and ListPipeline: real jq (jq-web, jq built to
 * WebAssembly) run on each item's wire JSON. As in pachd, an item is kept unless the filter's
 * first output is `false` or `null` or there is no output. A filter jq cannot compile, or one
 * that fails on an item, is the caller's error: code 3 with jq's own message.
 */
// jq-web's CommonJS export is a promise, which ESM interop would wrap: load it with require,
// on first use (it compiles its WebAssembly when loaded).
let jqModule: Promise<Jq> | null = null;
const loadJq = () => (jqModule ??= createRequire(import.meta.url)('jq-web') as Promise<Jq>);

export type JqPredicate = (item: unknown) => boolean;

function jqMessage(error: unknown): string {
  const { stderr, message } = error as JqError;
  return (stderr || message || String(error)).trim();
}

/** Compiles `filter`, checked on `null` so a syntax error surfaces before any item is read. */
export async function jqPredicate(filter: string): Promise<JqPredicate | null> {
  if (!filter.trim()) return null;
  const jq = await loadJq();
  try {
    jq.raw('null', filter, ['-c']);
  } catch (error) {
    // Exit code 3 is a compile error; failing at run time on `null` is fine (`.a[0]`).
    if ((error as JqError).exitCode === 3) throw invalidArgument(`jqFilter: ${jqMessage(error)}`);
  }
  const run = (json: string): string | undefined => {
    try {
      return jq.raw(json, filter, ['-c']);
    } catch (error) {
      throw invalidArgument(`jqFilter failed on an item: ${jqMessage(error)}`);
    }
  };
  return (item) => {
    const first = run(JSON.stringify(item))?.split('\n', 1)[0]?.trim();
    if (!first) return false;
    return first !== 'false' && first !== 'null';
  };
}

/** Keeps the items whose wire form passes `predicate` (all items when there is none). */
export function keepMatching<T>(
  items: T[],
  wire: (item: T) => unknown,
  predicate: JqPredicate | null,
): T[] {
  return predicate ? items.filter((item) => predicate(wire(item))) : items;
}
