/**
 * Shell-style glob over slash-separated paths: `*` and `?` stay within one segment, `**` spans
 * any depth, `[...]` is a character class. Matches a path without its trailing slash.
 */
export function globToRegExp(pattern: string, options: { captureGroups?: boolean } = {}): RegExp {
  const normalised = '/' + pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  let source = '';
  for (let i = 0; i < normalised.length; i++) {
    const char = normalised[i] as string;
    if (char === '*') {
      if (normalised[i + 1] === '*') {
        i++;
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
        source += '[' + body.replace(/\\/g, '\\\\') + ']';
        i = close;
      }
    } else if (options.captureGroups && (char === '(' || char === ')')) {
      // Pipelines' joinOn / groupBy refer to parenthesised parts of the glob as $1, $2...
      source += char;
    } else {
      source += char.replace(/[.+^${}()|\\]/g, '\\$&');
    }
  }
  return new RegExp('^' + source + '$');
}
