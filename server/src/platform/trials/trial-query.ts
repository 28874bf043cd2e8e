import { invalidArgument } from '../../errors.ts';

/**
 * ListTrial / CountTrial queries → SQL with bound parameters. Field names are whitelisted (a
 * column name or a `param.`/`label.`/`metric.` prefix); every value, including map-key names, is
 * a bound parameter, never part of the SQL text.
 */

export const filterOperators = ['EQ', 'NEQ', 'GT', 'GTE', 'LT', 'LTE', 'LIKE'] as const;
export type FilterOperator = (typeof filterOperators)[number];

export interface TrialFilter {
  field: string;
  operator: FilterOperator;
  value: string;
}

export interface TrialOrder {
  field: string;
  desc: boolean;
}

export interface TrialQuery {
  /** '' = every project. */
  project: string;
  /** '' = any. */
  flow: string;
  caseName: string;
  filters: TrialFilter[];
  includeDeleted: boolean;
  orderBy: TrialOrder[];
  /** 0 = no limit. */
  pageSize: number;
  pageIndex: number;
  /** ID of the last trial of the previous page ('' = from the start). */
  marker: string;
}

type ColumnType = 'text' | 'time';
type FieldKey =
  | { kind: 'column'; column: string; type: ColumnType }
  | { kind: 'param' | 'label' | 'metric'; name: string };

/** Top-level fields: wire name → column. */
const columns: Record<string, { column: string; type: ColumnType }> = {
  id: { column: 'id', type: 'text' },
  project: { column: 'project', type: 'text' },
  flow: { column: 'flow', type: 'text' },
  case: { column: 'case_name', type: 'text' },
  state: { column: 'state', type: 'text' },
  jobState: { column: 'job_state', type: 'text' },
  reason: { column: 'reason', type: 'text' },
  author: { column: 'author', type: 'text' },
  description: { column: 'description', type: 'text' },
  jobSetId: { column: 'job_set_id', type: 'text' },
  rerunOf: { column: 'rerun_of', type: 'text' },
  created: { column: 'created_at', type: 'time' },
  started: { column: 'started_at', type: 'time' },
  finished: { column: 'finished_at', type: 'time' },
  deleted: { column: 'deleted_at', type: 'time' },
};

const prefixes: Record<string, 'param' | 'label' | 'metric'> = {
  param: 'param',
  params: 'param',
  parameter: 'param',
  parameters: 'param',
  label: 'label',
  labels: 'label',
  metric: 'metric',
  metrics: 'metric',
};

/** Parses a field name ("flow", "created_at", "param.lr", "metric.accuracy"). */
export function parseField(field: string, what: string): FieldKey {
  const dot = field.indexOf('.');
  if (dot > 0) {
    const kind = prefixes[field.slice(0, dot)];
    const name = field.slice(dot + 1);
    if (kind && name) return { kind, name };
    throw invalidArgument(
      `${what}: unknown field ${JSON.stringify(field)} (use param.<name>, label.<name> or metric.<name>)`,
    );
  }
  const camel = field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const column = columns[camel] ?? columns[camel.replace(/At$/, '')];
  if (column) return { kind: 'column', ...column };
  throw invalidArgument(
    `${what}: unknown field ${JSON.stringify(field)}; fields are ${Object.keys(columns).join(', ')}, param.<name>, label.<name>, metric.<name>`,
  );
}

const comparison: Record<Exclude<FilterOperator, 'LIKE'>, string> = {
  EQ: '=',
  NEQ: '!=',
  GT: '>',
  GTE: '>=',
  LT: '<',
  LTE: '<=',
};

const numberPattern = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const asNumber = (text: string): number | null =>
  numberPattern.test(text) && Number.isFinite(Number(text)) ? Number(text) : null;

function timeValue(text: string, what: string): number {
  if (/^\d+$/.test(text.trim())) return Number(text);
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw invalidArgument(`${what}: ${JSON.stringify(text)} is not an RFC 3339 time or ms`);
  return ms;
}

interface Join {
  alias: string;
  kind: 'param' | 'label' | 'metric';
  name: string;
  inner: boolean;
}

/** One ORDER BY term; a sort key expands to one or more. */
interface Component {
  expr: string;
  desc: boolean;
}

const keyId = (key: FieldKey) =>
  key.kind === 'column' ? `column:${key.column}` : `${key.kind}:${key.name}`;

export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

/**
 * Builds the page query, the count query (`count`), or the lookup of a marker trial's sort-key
 * values (`markerLookup` = its ID; same components as the page query, so they line up).
 */
export function buildTrialQuery(
  query: TrialQuery,
  markerValues: unknown[] | null,
  count = false,
  markerLookup?: string,
): BuiltQuery {
  const joins = new Map<string, Join>();
  const parsedFilters = query.filters.map((filter, i) => ({
    filter,
    key: parseField(filter.field, `filters[${i}].field`),
    what: `filters[${i}]`,
  }));
  const parsedOrder = (
    query.orderBy.length > 0 ? query.orderBy : [{ field: 'created', desc: true }]
  ).map((order, i) => ({ order, key: parseField(order.field, `orderBy[${i}].field`) }));

  const ensureJoin = (key: FieldKey, inner: boolean): Join | null => {
    if (key.kind === 'column') return null;
    const id = keyId(key);
    let join = joins.get(id);
    if (!join) {
      join = { alias: `j${joins.size}`, kind: key.kind, name: key.name, inner };
      joins.set(id, join);
    } else if (inner) join.inner = true;
    return join;
  };
  // Every operator but NEQ needs the value to exist: an inner join lets SQLite drive the
  // query from the (name, value) index.
  for (const { filter, key } of parsedFilters) ensureJoin(key, filter.operator !== 'NEQ');
  if (!count) for (const { key } of parsedOrder) ensureJoin(key, false);

  const where: string[] = [];
  const whereParams: unknown[] = [];
  if (markerLookup !== undefined) {
    where.push('t.id = ?');
    whereParams.push(markerLookup);
  } else {
    if (!query.includeDeleted) where.push(`t.state != 'DELETED'`);
    if (query.project) {
      where.push('t.project = ?');
      whereParams.push(query.project);
    }
    if (query.flow) {
      where.push('t.flow = ?');
      whereParams.push(query.flow);
    }
    if (query.caseName) {
      where.push('t.case_name = ?');
      whereParams.push(query.caseName);
    }
    for (const { filter, key, what } of parsedFilters) {
      const condition = filterCondition(
        key,
        filter,
        what,
        key.kind === 'column' ? null : (joins.get(keyId(key)) ?? null),
      );
      where.push(condition.sql);
      whereParams.push(...condition.params);
    }
  }

  const joinSql: string[] = [];
  const joinParams: unknown[] = [];
  for (const join of joins.values()) {
    const table =
      join.kind === 'param'
        ? 'trial_params'
        : join.kind === 'label'
          ? 'trial_labels'
          : 'trial_metrics';
    const type = join.inner && markerLookup === undefined ? 'JOIN' : 'LEFT JOIN';
    const final = join.kind === 'metric' ? ` AND ${join.alias}.is_final = 1` : '';
    joinSql.push(
      `${type} ${table} ${join.alias} ON ${join.alias}.trial_id = t.id AND ${join.alias}.name = ?${final}`,
    );
    joinParams.push(join.name);
  }

  if (count) {
    return {
      sql: `SELECT COUNT(*) FROM trials t ${joinSql.join(' ')} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
      params: [...joinParams, ...whereParams],
    };
  }

  // Sort components: missing values last in both directions; the trial ID breaks ties.
  const components: Component[] = [];
  for (const { order, key } of parsedOrder) {
    const desc = order.desc;
    if (key.kind === 'column') {
      const expr = `t.${key.column}`;
      if (key.type === 'time' && key.column !== 'created_at')
        components.push({ expr: `(${expr} IS NULL)`, desc: false });
      components.push({ expr, desc });
      continue;
    }
    const join = joins.get(keyId(key)) as Join;
    const a = join.alias;
    if (!join.inner) components.push({ expr: `(${a}.value IS NULL)`, desc: false });
    if (join.kind === 'metric') components.push({ expr: `${a}.value`, desc });
    else {
      // Numbers (numerically) before text (as text); DESC reverses both.
      components.push({ expr: `(${a}.num_value IS NULL)`, desc });
      components.push({ expr: `${a}.num_value`, desc });
      components.push({ expr: `${a}.value`, desc });
    }
  }
  const first = parsedOrder[0] as (typeof parsedOrder)[number];
  const firstJoin = first.key.kind === 'column' ? null : joins.get(keyId(first.key));
  const idExpr =
    firstJoin?.inner && markerLookup === undefined ? `${firstJoin.alias}.trial_id` : 't.id';
  components.push({ expr: idExpr, desc: first.order.desc });

  if (markerLookup !== undefined) {
    return {
      sql: `SELECT ${components.map((c) => c.expr).join(', ')} FROM trials t ${joinSql.join(' ')} WHERE ${where.join(' AND ')}`,
      params: [...joinParams, ...whereParams],
    };
  }

  if (markerValues) {
    // Rows after the marker: (c0 > m0) OR (c0 IS m0 AND c1 > m1) OR ... in each term's direction.
    const alternatives: string[] = [];
    const altParams: unknown[] = [];
    components.forEach((component, i) => {
      const value = markerValues[i];
      if (value === null || value === undefined) return;
      const equal = components.slice(0, i).map((c) => `${c.expr} IS ?`);
      alternatives.push(
        [...equal, `${component.expr} ${component.desc ? '<' : '>'} ?`].join(' AND '),
      );
      altParams.push(...markerValues.slice(0, i), value);
    });
    where.push(alternatives.length ? `(${alternatives.map((a) => `(${a})`).join(' OR ')})` : '0');
    whereParams.push(...altParams);
  }

  const limit: string[] = [];
  const limitParams: unknown[] = [];
  if (query.pageSize > 0) {
    limit.push('LIMIT ? OFFSET ?');
    limitParams.push(query.pageSize, query.marker ? 0 : query.pageIndex * query.pageSize);
  }
  return {
    sql: `SELECT t.* FROM trials t ${joinSql.join(' ')} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${components.map((c) => `${c.expr} ${c.desc ? 'DESC' : 'ASC'}`).join(', ')} ${limit.join(' ')}`,
    params: [...joinParams, ...whereParams, ...limitParams],
  };
}

function filterCondition(
  key: FieldKey,
  filter: TrialFilter,
  what: string,
  join: Join | null,
): BuiltQuery {
  const { operator, value } = filter;
  const like = (expr: string): BuiltQuery => ({
    sql: `${expr} LIKE ? ESCAPE '\\'`,
    params: [value],
  });
  if (key.kind === 'column') {
    const expr = `t.${key.column}`;
    if (key.type === 'text') {
      if (operator === 'LIKE') return like(expr);
      return { sql: `${expr} ${comparison[operator]} ?`, params: [value] };
    }
    if (operator === 'LIKE') throw invalidArgument(`${what}: LIKE does not apply to times`);
    const ms = timeValue(value, what);
    if (operator === 'NEQ') return { sql: `(${expr} IS NULL OR ${expr} != ?)`, params: [ms] };
    return { sql: `${expr} ${comparison[operator]} ?`, params: [ms] };
  }
  const a = (join as Join).alias;
  if (key.kind === 'metric') {
    if (operator === 'LIKE') throw invalidArgument(`${what}: LIKE does not apply to metrics`);
    const number = asNumber(value);
    if (number === null)
      throw invalidArgument(`${what}: metric values are numbers, not ${JSON.stringify(value)}`);
    if (operator === 'NEQ') return { sql: `NOT IFNULL(${a}.value = ?, 0)`, params: [number] };
    return { sql: `${a}.value ${comparison[operator]} ?`, params: [number] };
  }
  if (operator === 'LIKE') return like(`${a}.value`);
  const number = asNumber(value);
  const column = number === null ? `${a}.value` : `${a}.num_value`;
  const bound = number ?? value;
  if (operator === 'NEQ') return { sql: `NOT IFNULL(${column} = ?, 0)`, params: [bound] };
  return { sql: `${column} ${comparison[operator]} ?`, params: [bound] };
}
