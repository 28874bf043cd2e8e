/** Where each value of a JSON text sits, by JSON Pointer ('' is the root, '/a/0/b' nested). */
export interface JsonRange {
  from: number;
  to: number;
  /** For object members: the key's range. */
  keyFrom?: number;
  keyTo?: number;
}

/**
 * Scans a JSON text (tolerating an incomplete one) and records each value's range by pointer.
 * Used to put the server's schema errors (`/transform/cmd must be array`) under the right text.
 */
export function jsonRanges(text: string): Map<string, JsonRange> {
  const ranges = new Map<string, JsonRange>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const str = () => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return { start, end: Math.min(i, text.length) };
  };
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  const value = (pointer: string, key?: { start: number; end: number }): void => {
    ws();
    const from = i;
    const c = text[i];
    if (c === '{') {
      i++;
      for (;;) {
        ws();
        if (i >= text.length || text[i] === '}') break;
        if (text[i] !== '"') break;
        const k = str();
        const name = text.slice(k.start + 1, k.end - 1);
        ws();
        if (text[i] === ':') i++;
        value(`${pointer}/${escape(name)}`, k);
        ws();
        if (text[i] === ',') i++;
        else break;
      }
      if (text[i] === '}') i++;
    } else if (c === '[') {
      i++;
      for (let index = 0; ; index++) {
        ws();
        if (i >= text.length || text[i] === ']') break;
        value(`${pointer}/${index}`);
        ws();
        if (text[i] === ',') i++;
        else break;
      }
      if (text[i] === ']') i++;
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && /[^\s,\]}]/.test(text[i] as string)) i++;
    }
    ranges.set(pointer, {
      from,
      to: Math.max(from, i),
      ...(key ? { keyFrom: key.start, keyTo: key.end } : {}),
    });
  };
  value('');
  return ranges;
}

/** 'input.cross[0].pfs.repo' → '/input/cross/0/pfs/repo'. */
export function dottedToPointer(path: string): string {
  return `/${path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .join('/')}`;
}

export interface SpecProblem {
  message: string;
  from: number;
  to: number;
}

/** The range for a pointer, or its nearest existing parent (a missing property's object). */
export function rangeFor(ranges: Map<string, JsonRange>, pointer: string): JsonRange {
  let p = pointer;
  for (;;) {
    const found = ranges.get(p);
    if (found) return found;
    if (p === '') return { from: 0, to: 0 };
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

/**
 * Turns a dry run's error message into positioned problems. Schema errors look like
 * `invalid pipeline spec: /transform/cmd must be array; /pipeline must have …`; other checks name
 * a dotted field (`transform.cmd is required`); JSON syntax errors carry a position.
 */
export function problemsFromError(text: string, message: string): SpecProblem[] {
  const ranges = jsonRanges(text);
  const place = (pointer: string, msg: string): SpecProblem => {
    const range = rangeFor(ranges, pointer);
    const useKey = range.keyFrom !== undefined && ranges.has(pointer);
    const from = useKey ? (range.keyFrom as number) : range.from;
    const to = useKey ? (range.keyTo as number) : Math.min(range.to, range.from + 1);
    return { message: msg, from, to: Math.max(to, from) };
  };
  const body = message.replace(/^.*?invalid pipeline spec:\s*/, '');
  if (body !== message) {
    return body
      .split(/;\s*/)
      .filter(Boolean)
      .map((part) => {
        const match = /^(\/\S*|\(spec\))\s+(.*)$/.exec(part);
        const pointer = match && match[1] !== '(spec)' ? (match[1] as string) : '';
        return place(pointer, part);
      });
  }
  const position = /position (\d+)/.exec(message);
  if (position) {
    const at = Math.min(Number(position[1]), text.length);
    return [{ message, from: at, to: Math.min(at + 1, text.length) }];
  }
  const dotted = /^([a-zA-Z][\w]*(?:(?:\.[a-zA-Z]\w*)|(?:\[\d+\]))*)\s/.exec(
    message.replace(/^.*?:\s(?=[a-z])/, ''),
  );
  if (dotted && dotted[1]?.includes('.')) return [place(dottedToPointer(dotted[1]), message)];
  return [{ message, from: 0, to: 0 }];
}

/** The JSON syntax error of a text, positioned, or null when it parses. */
export function syntaxProblem(text: string): SpecProblem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const at = position ? Math.min(Number(position[1]), text.length) : text.length;
    return {
      message: `Invalid JSON: ${message}`,
      from: Math.max(0, at - (at === text.length ? 1 : 0)),
      to: at,
    };
  }
}

type Schema = Record<string, unknown>;

/** The schema of the value at `path` (keys and indexes), following properties, items and $ref. */
export function schemaAt(root: Schema, path: readonly string[]): Schema | null {
  const resolve = (s: Schema | undefined): Schema | undefined => {
    let current = s;
    for (let n = 0; current && typeof current.$ref === 'string' && n < 10; n++) {
      const parts = (current.$ref as string).replace(/^#\//, '').split('/');
      let target: unknown = root;
      for (const part of parts) target = (target as Schema | undefined)?.[part];
      current = target as Schema | undefined;
    }
    return current;
  };
  let current = resolve(root);
  for (const step of path) {
    if (!current) return null;
    if (/^\d+$/.test(step) && current.items) current = resolve(current.items as Schema);
    else current = resolve((current.properties as Record<string, Schema> | undefined)?.[step]);
  }
  return current ?? null;
}

/** Property names (with descriptions) the schema allows at `path`. */
export function schemaKeys(root: Schema, path: readonly string[]) {
  const schema = schemaAt(root, path);
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props).map(([name, s]) => ({
    name,
    type: typeof s.type === 'string' ? s.type : s.$ref ? 'object' : '',
    description: typeof s.description === 'string' ? s.description : '',
  }));
}
