import { invalidArgument } from '../../errors.ts';

/**
 * pachd's ancestry syntax on a pipeline's name: `p^` or `p~` is the version before the current
 * one, `p^^` two before, `p^3` / `p~3` three before. (`p.3`, a version counted from the first,
 * pachd refuses for pipelines: "cannot inspect future pipelines".)
 */
export function parseAncestry(name: string): { base: string; ancestors: number } {
  const at = name.search(/[\^~.]/);
  if (at === -1) return { base: name, ancestors: 0 };
  const base = name.slice(0, at);
  const separator = name[at] as string;
  const rest = name.slice(at + 1);
  let ancestors: number;
  if (/^\d+$/.test(rest)) ancestors = Number(rest);
  else if ([...rest].every((char) => char === separator)) ancestors = rest.length + 1;
  else {
    const other = [...rest].find((char) => char !== separator);
    throw invalidArgument(
      `invalid ancestry syntax ${JSON.stringify(name)}, cannot mix ${separator} and ${other} characters`,
    );
  }
  if (separator === '.') throw invalidArgument('cannot inspect future pipelines');
  return { base, ancestors };
}
