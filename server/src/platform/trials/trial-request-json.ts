/**
 * omni_v1 is Ivory's own service, and its gateway JSON has always taken a few forms beside the
 * protocol's: `project` (and `trial`) as a plain string, map values and filter values as numbers
 * or booleans, `filter` for `filters`, `key` for a filter's `field`, `op`/`comparison` for its
 * `operator`, `page: {pageSize, pageIndex}`, `paginationMarker` for `pageToken`. This rewrites
 * them to protobuf JSON before the request is decoded (typed-method.ts); everything else —
 * types included — is the generated message's to check.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const scalarText = (value: unknown): unknown =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

/** Moves `from` to `to` unless `to` is given (snake_case spellings of `to` count as given). */
function alias(body: Json, from: string, to: string, toSnake = to): void {
  if (!(from in body)) return;
  if (body[to] === undefined && body[toSnake] === undefined) body[to] = body[from];
  delete body[from];
}

function filterJson(value: unknown): unknown {
  if (!isObject(value)) return value;
  const filter = { ...value };
  alias(filter, 'key', 'field');
  alias(filter, 'op', 'operator');
  alias(filter, 'comparison', 'operator');
  if ('value' in filter) filter.value = scalarText(filter.value);
  return filter;
}

export function trialRequestJson(body: unknown): unknown {
  if (!isObject(body)) return body;
  const out = { ...body };
  if (typeof out.project === 'string') out.project = { name: out.project };
  if (typeof out.trial === 'string') out.trial = { id: out.trial };
  for (const key of ['parameters', 'labels']) {
    const map = out[key];
    if (isObject(map))
      out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, scalarText(v)]));
  }
  alias(out, 'filter', 'filters');
  if (Array.isArray(out.filters)) out.filters = out.filters.map(filterJson);
  if (isObject(out.page)) {
    const page = out.page;
    delete out.page;
    for (const [camel, snake] of [
      ['pageSize', 'page_size'],
      ['pageIndex', 'page_index'],
    ] as const) {
      const value = page[camel] ?? page[snake];
      if (value !== undefined && out[camel] === undefined && out[snake] === undefined)
        out[camel] = value;
    }
  }
  alias(out, 'paginationMarker', 'pageToken', 'page_token');
  alias(out, 'pagination_marker', 'pageToken', 'page_token');
  return out;
}
