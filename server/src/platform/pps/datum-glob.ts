import path from 'node:path';
import { RE2JS } from 're2js';
import { invalidArgument } from '../../errors.ts';
import type { GlobMatcher } from '../pfs/glob.ts';

/**
 * The glob of a pipeline's pfs input, read as pachd reads it (its glob library, ohmyglob, with
 * `/` as the separator): `*` and `?` stay within a path segment, `**` spans any depth, `[...]`
 * (`[!...]`, `[^...]`) is a character class, `{a,b}` alternatives, and parenthesised groups
 * are capture groups (`$1`, `$2`… in joinOn and groupBy), optionally with an extglob quantifier:
 * `(a|b)` or `@(a|b)` one of, `*(…)` any number, `+(…)` at least one, `?(…)` at most one,
 * `!(…)` (or `^(…)`) anything but.
 *
 * It becomes a regular expression run by RE2JS, in linear time. RE2 has no lookahead, which a
 * negation needs: a glob with `!(…)` is matched piecewise instead — the part before it as one
 * expression, then each place the negation may end, the rest matched the same way — which costs
 * at most the square of the path's length (paths are short), never exponential time.
 */

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'any' }
  | { kind: 'super' }
  | { kind: 'single' }
  | { kind: 'class'; source: string }
  | { kind: 'anyOf'; alternatives: Node[][] }
  | { kind: 'capture'; quantifier: '@' | '*' | '+' | '?' | '!'; alternatives: Node[][] };

/** pachd's CleanPath: a leading slash, no trailing one, `.`, `..` and repeated slashes resolved. */
export function cleanGlob(glob: string): string {
  return path.posix.normalize('/' + glob).replace(/(.)\/+$/, '$1');
}

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): Node[] {
    const nodes = this.sequence(false, false);
    if (this.at < this.text.length)
      throw new Error(`unexpected ${JSON.stringify(this.text[this.at])} at ${this.at}`);
    return nodes;
  }

  /** Nodes up to the end, or a `|`/`)` (in a group) or `,`/`}` (in alternatives). */
  private sequence(inGroup: boolean, inTerms: boolean): Node[] {
    const nodes: Node[] = [];
    let text = '';
    const flush = () => {
      if (text) nodes.push({ kind: 'text', text });
      text = '';
    };
    while (this.at < this.text.length) {
      const char = this.text[this.at] as string;
      const next = this.text[this.at + 1];
      if (
        (inGroup && (char === '|' || char === ')')) ||
        (inTerms && (char === ',' || char === '}'))
      )
        break;
      if (char === '\\' && next !== undefined) {
        text += next;
        this.at += 2;
        continue;
      }
      const quantifier =
        char === '(' ? '@' : next === '(' && '@!^+?*'.includes(char) ? char : undefined;
      // (`**(` is `*` then `*(`: see `*` below.)
      if (quantifier) {
        flush();
        this.at += char === '(' ? 1 : 2;
        nodes.push({
          kind: 'capture',
          quantifier: (quantifier === '^' ? '!' : quantifier) as '@' | '*' | '+' | '?' | '!',
          alternatives: this.alternatives(')', '|', true, false),
        });
        continue;
      }
      if (char === '{') {
        flush();
        this.at++;
        nodes.push({ kind: 'anyOf', alternatives: this.alternatives('}', ',', false, true) });
        continue;
      }
      if (char === '*') {
        flush();
        if (next === '*' && this.text[this.at + 2] !== '(') {
          nodes.push({ kind: 'super' });
          this.at += 2;
        } else {
          nodes.push({ kind: 'any' });
          this.at++;
        }
        continue;
      }
      if (char === '?') {
        flush();
        nodes.push({ kind: 'single' });
        this.at++;
        continue;
      }
      if (char === '[') {
        const close = this.text.indexOf(']', this.at + 2);
        if (close !== -1) {
          flush();
          let body = this.text.slice(this.at + 1, close);
          const negated = body.startsWith('!') || body.startsWith('^');
          if (negated) body = body.slice(1);
          const escaped = body.replace(/\\/g, '\\\\').replace(/\[(?!:)/g, '\\[');
          nodes.push({ kind: 'class', source: `[${negated ? '^' : ''}${escaped}]` });
          this.at = close + 1;
          continue;
        }
      }
      text += char;
      this.at++;
    }
    flush();
    return nodes;
  }

  private alternatives(close: string, separator: string, group: boolean, terms: boolean) {
    const alternatives: Node[][] = [];
    for (;;) {
      alternatives.push(this.sequence(group, terms));
      const char = this.text[this.at];
      this.at++;
      if (char === separator) continue;
      if (char === close) return alternatives;
      throw new Error(`missing ${JSON.stringify(close)}`);
    }
  }
}

const escape = (text: string) => text.replace(/[.+*?^${}()|[\]\\]/g, '\\$&');

/** The regular expression of nodes without a negation. */
function source(nodes: Node[]): string {
  return nodes.map(nodeSource).join('');
}

function nodeSource(node: Node): string {
  switch (node.kind) {
    case 'text':
      return escape(node.text);
    case 'any':
      return '[^/]*';
    case 'super':
      return '.*';
    case 'single':
      return '[^/]';
    case 'class':
      return node.source;
    case 'anyOf':
      return `(?:${node.alternatives.map(source).join('|')})`;
    case 'capture': {
      const inner = node.alternatives.map(source).join('|');
      if (node.quantifier === '@') return `(${inner})`;
      return `((?:${inner})${node.quantifier})`;
    }
  }
}

function hasNegation(nodes: Node[]): boolean {
  return nodes.some(
    (node) =>
      (node.kind === 'capture' &&
        (node.quantifier === '!' || node.alternatives.some(hasNegation))) ||
      (node.kind === 'anyOf' && node.alternatives.some(hasNegation)),
  );
}

function compile(regex: string): RE2JS {
  return RE2JS.compile(regex, RE2JS.DOTALL);
}

/** A matcher for nodes with a negation at the top level (elsewhere: refused). */
type Matches = (text: string) => boolean;

function piecewise(nodes: Node[]): Matches {
  const index = nodes.findIndex((node) => node.kind === 'capture' && node.quantifier === '!');
  if (index === -1) {
    if (hasNegation(nodes)) throw new Error('a negation !(…) may not be nested in a group');
    const whole = compile(`^${source(nodes)}$`);
    return (text) => whole.matches(text);
  }
  const negation = nodes[index] as Extract<Node, { kind: 'capture' }>;
  if (negation.alternatives.some(hasNegation))
    throw new Error('a negation !(…) may not be nested in another');
  const before = compile(`^${source(nodes.slice(0, index))}$`);
  const rest = nodes.slice(index + 1);
  const after = piecewise(rest);
  // As ohmyglob: the negated pattern is tried at the negation's start, to the end of the path
  // when nothing bounding (text, `*`, `**`) follows it, else as a prefix.
  const bounded = rest.some((n) => n.kind === 'text' || n.kind === 'any' || n.kind === 'super');
  const excluded = compile(
    `^(?:${negation.alternatives.map(source).join('|')})${bounded ? '' : '$'}`,
  );
  return (text) => {
    for (let start = 0; start <= text.length; start++) {
      if (!before.matches(text.slice(0, start))) continue;
      if (excluded.matcher(text.slice(start)).lookingAt()) continue;
      for (let end = start; end <= text.length; end++) {
        if (after(text.slice(end))) return true;
        if (text[end] === '/') break;
      }
    }
    return false;
  };
}

/**
 * A pipeline input's glob (cleaned as pachd cleans it) as a matcher of paths without their
 * trailing slash; `exec` gives the capture groups ($1…) too (none through a negation).
 * A glob that cannot be read is INVALID_ARGUMENT.
 */
export function compileDatumGlob(glob: string): GlobMatcher {
  const cleaned = cleanGlob(glob);
  try {
    const nodes = new Parser(cleaned).parse();
    if (!hasNegation(nodes)) {
      const regex = compile(`^${source(nodes)}$`);
      return {
        test: (text) => regex.matches(text),
        exec(text) {
          const matcher = regex.matcher(text);
          if (!matcher.matches()) return null;
          const groups: (string | null)[] = [];
          for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i));
          return groups;
        },
      };
    }
    const matches = piecewise(nodes);
    return { test: matches, exec: (text) => (matches(text) ? [text] : null) };
  } catch (error) {
    throw invalidArgument(
      `glob pattern ${JSON.stringify(glob)} is invalid: ${(error as Error).message}`,
    );
  }
}
