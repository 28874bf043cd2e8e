import { RE2JS } from 're2js';
import { invalidArgument } from '../../errors.ts';

/** A compiled glob: matches whole paths (without their trailing slash) in linear time. */
export interface GlobMatcher {
  test(path: string): boolean;
  /** The whole match and its parenthesised groups ($1, $2…), or null. */
  exec(path: string): (string | null)[] | null;
}

/**
 * Shell-style glob over slash-separated paths: `*` and `?` stay within one segment, `**` spans
 * any depth, `[...]` is a character class (`[!...]` negated). The glob becomes a regular
 * expression run by RE2JS (RE2's automaton: linear in the path length, no backtracking), so
 * no pattern can hold the event loop however many wildcards it stacks. A malformed pattern
 * (an inverted range, an unbalanced group) is INVALID_ARGUMENT.
 */
export function compileGlob(
  pattern: string,
  options: { captureGroups?: boolean } = {},
): GlobMatcher {
  const source = globSource(pattern, options.captureGroups ?? false);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile('^' + source + '$', RE2JS.DOTALL);
  } catch (error) {
    throw invalidArgument(
      `glob pattern ${JSON.stringify(pattern)} is invalid: ${(error as Error).message}`,
    );
  }
  return {
    test: (path) => compiled.matches(path),
    exec(path) {
      const matcher = compiled.matcher(path);
      if (!matcher.matches()) return null;
      const groups: (string | null)[] = [];
      for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i));
      return groups;
    },
  };
}

function globSource(pattern: string, captureGroups: boolean): string {
  const normalised = '/' + pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  let source = '';
  for (let i = 0; i < normalised.length; i++) {
    const char = normalised[i] as string;
    if (char === '*') {
      if (normalised[i + 1] === '*') {
        i++;
        while (normalised[i + 1] === '*') i++;
        if (normalised[i + 1] === '/') {
          i++;
          source += '(?:.*/)?';
        } else {
          source += '.*';
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = normalised.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        let body = normalised.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        source += '[' + body.replace(/\\/g, '\\\\').replace(/\[/g, '\\[') + ']';
        i = close;
      }
    } else if (captureGroups && (char === '(' || char === ')')) {
      // Pipelines' joinOn / groupBy refer to parenthesised parts of the glob as $1, $2...
      source += char;
    } else {
      source += char.replace(/[.+*?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return source;
}

/**
 * What a GlobFile scan can read from the path index: every path the glob matches starts with
 * `prefix` (the pattern's text before its first wildcard), so only stored paths in
 * [prefix, upper) need testing (`upper` null: no bound). `anyBelow`: the glob is `prefix**`,
 * which matches every path starting with the prefix, with no need to run the expression.
 */
export function globPrefix(pattern: string): {
  prefix: string;
  upper: string | null;
  anyBelow: boolean;
} {
  const normalised = '/' + pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  const wildcard = normalised.search(/[*?[]/);
  const prefix = wildcard === -1 ? normalised : normalised.slice(0, wildcard);
  const rest = wildcard === -1 ? '' : normalised.slice(wildcard);
  const last = prefix.charCodeAt(prefix.length - 1);
  // The next string after every one starting with the prefix; none when bumping the last code
  // unit would step into (or past) the surrogates, whose order differs in SQLite's UTF-8.
  const upper =
    prefix === '/' || last >= 0xd7ff ? null : prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return { prefix, upper, anyBelow: /^\*\*+$/.test(rest) };
}
