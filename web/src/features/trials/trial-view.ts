import {
  SortOrder,
  TrialFilterOperator,
  type SortOrder as SortOrderType,
  type Trial,
  type TrialFilter,
  type TrialFilterOperator as Operator,
  type TrialOrderBy,
} from '@ivory/api';

/**
 * A trials view (what the table shows) and its URL form, so a view can be shared:
 *
 *   ?flow=demo&case=c1&f=metric.accuracy:GT:0.5&f=state:EQ:STARTED
 *    &sort=metric.accuracy:DESC&cols=param.lr,metric.accuracy
 *
 * `flow` and `case` are ListTrial's own arguments (exact match); each `f` is one TrialFilter
 * (`<field>:<operator>:<value>`, the value may hold `:`), `sort` the orderBy keys in order,
 * `cols` the chosen parameter / label / metric columns. Missing `cols` means "pick defaults".
 */
export interface TrialsView {
  flow: string;
  case: string;
  filters: TrialFilter[];
  orderBy: TrialOrderBy[];
  /** null: not chosen (the table picks defaults from what it loaded). */
  columns: string[] | null;
}

/** A row of the filter builder, as edited (field may still be empty). */
export interface FilterRow {
  field: string;
  operator: Operator;
  value: string;
}

/** Fields every trial has, offered first in the filter builder. */
export const BASE_FILTER_FIELDS = [
  'state',
  'flow',
  'case',
  'author',
  'description',
  'created',
] as const;

export const TIME_FIELDS = new Set(['created', 'started', 'finished', 'deleted']);

export const DEFAULT_ORDER: TrialOrderBy[] = [{ field: 'created', order: 'DESC' }];

const FILTER_PATTERN = new RegExp(`^(.+?):(${TrialFilterOperator.join('|')}):(.*)$`, 's');

const isOperator = (value: string): value is Operator =>
  (TrialFilterOperator as readonly string[]).includes(value);
const isOrder = (value: string): value is SortOrderType =>
  (SortOrder as readonly string[]).includes(value);

/** The builder's rows as the ListTrial / CountTrial filter list: rows without a field are
 *  dropped, fields and (except for description/text values) values trimmed. */
export function filtersFromRows(rows: readonly FilterRow[]): TrialFilter[] {
  return rows
    .map((row) => ({ field: row.field.trim(), operator: row.operator, value: row.value.trim() }))
    .filter((row) => row.field !== '' && isOperator(row.operator));
}

export function encodeFilter(filter: TrialFilter): string {
  return `${filter.field}:${filter.operator}:${filter.value}`;
}

export function decodeFilter(text: string): TrialFilter | null {
  const match = FILTER_PATTERN.exec(text);
  if (!match) return null;
  const [, field = '', operator = '', value = ''] = match;
  return isOperator(operator) ? { field, operator, value } : null;
}

function decodeOrder(text: string): TrialOrderBy | null {
  const at = text.lastIndexOf(':');
  const field = at < 0 ? text : text.slice(0, at);
  const order = at < 0 ? 'ASC' : text.slice(at + 1);
  return field && isOrder(order) ? { field, order } : null;
}

/** The view held in a URL query. Malformed entries are skipped. */
export function viewFromSearch(search: URLSearchParams): TrialsView {
  const filters = search
    .getAll('f')
    .map(decodeFilter)
    .filter((filter): filter is TrialFilter => filter !== null);
  const orderBy = (search.get('sort') ?? '')
    .split(',')
    .filter(Boolean)
    .map(decodeOrder)
    .filter((order): order is TrialOrderBy => order !== null);
  const cols = search.get('cols');
  return {
    flow: search.get('flow') ?? '',
    case: search.get('case') ?? '',
    filters,
    orderBy,
    columns: cols === null ? null : cols.split(',').filter(Boolean),
  };
}

/** The URL query of a view: the inverse of viewFromSearch. */
export function searchFromView(view: TrialsView): URLSearchParams {
  const search = new URLSearchParams();
  if (view.flow) search.set('flow', view.flow);
  if (view.case) search.set('case', view.case);
  for (const filter of view.filters) search.append('f', encodeFilter(filter));
  if (view.orderBy.length > 0)
    search.set('sort', view.orderBy.map((key) => `${key.field}:${key.order}`).join(','));
  if (view.columns !== null) search.set('cols', view.columns.join(','));
  return search;
}

/** The orderBy sent to the server: the view's, or newest first. */
export function effectiveOrder(view: TrialsView): TrialOrderBy[] {
  return view.orderBy.length > 0 ? view.orderBy : DEFAULT_ORDER;
}

/** The `param.*`, `label.*` and `metric.*` names found in trials (and flow defaults), sorted. */
export function discoveredFields(
  trials: readonly Trial[],
  flowParameters: readonly string[] = [],
): { params: string[]; labels: string[]; metrics: string[] } {
  const params = new Set(flowParameters);
  const labels = new Set<string>();
  const metrics = new Set<string>();
  for (const trial of trials) {
    for (const name of Object.keys(trial.parameters ?? {})) params.add(name);
    for (const name of Object.keys(trial.labels ?? {})) labels.add(name);
    for (const metric of trial.metrics ?? []) metrics.add(metric.name);
  }
  const sorted = (names: Set<string>) => [...names].sort((a, b) => a.localeCompare(b));
  return {
    params: sorted(params).map((name) => `param.${name}`),
    labels: sorted(labels).map((name) => `label.${name}`),
    metrics: sorted(metrics).map((name) => `metric.${name}`),
  };
}

/** The value a `param.*`, `label.*` or `metric.*` column shows for a trial ('' when absent). */
export function columnValue(trial: Trial, column: string): string {
  const dot = column.indexOf('.');
  const kind = column.slice(0, dot);
  const name = column.slice(dot + 1);
  if (kind === 'param') return trial.parameters?.[name] ?? '';
  if (kind === 'label') return trial.labels?.[name] ?? '';
  if (kind === 'metric') {
    const metric = trial.metrics?.find((item) => item.name === name);
    return metric ? formatMetric(metric.value) : '';
  }
  return '';
}

export function formatMetric(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

/** Default columns when the URL names none: the first few parameters and metrics. */
export function defaultColumns(fields: { params: string[]; metrics: string[] }): string[] {
  return [...fields.params.slice(0, 4), ...fields.metrics.slice(0, 4)];
}

/** Trial IDs start with 12 digits of creation time: the last 8 digits tell trials apart. */
export function shortTrialId(id: string): string {
  return id.length > 8 ? id.slice(-8) : id;
}

/** A trial is finished when `finished` is set (SKIPPED, UNRUNNABLE, or STARTED after success). */
export function isFinished(trial: Trial): boolean {
  return Boolean(trial.finished) || trial.state === 'DELETED';
}

/** `key=value` lines (labels, extra parameters) as a map; blank lines skipped. */
export function parseKeyValueLines(text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf('=');
    const key = (at < 0 ? trimmed : trimmed.slice(0, at)).trim();
    if (key) map[key] = at < 0 ? '' : trimmed.slice(at + 1).trim();
  }
  return map;
}

/** A trial's state as people read it; the wire enum stays the spec's. */
export type TrialHumanState =
  'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Skipped' | 'Deleted';

const FAILED_JOB_STATES = new Set(['JOB_FAILURE', 'JOB_KILLED', 'JOB_UNRUNNABLE']);

/** Pending / Running / Succeeded / Failed / Skipped / Deleted from state, jobState and finished. */
export function trialHumanState(
  trial: Pick<Trial, 'state' | 'jobState' | 'finished'>,
): TrialHumanState {
  switch (trial.state) {
    case 'DELETED':
      return 'Deleted';
    case 'SKIPPED':
      return 'Skipped';
    case 'UNRUNNABLE':
      return 'Failed';
    case 'STARTED':
      if (FAILED_JOB_STATES.has(trial.jobState)) return 'Failed';
      return trial.finished ? 'Succeeded' : 'Running';
    default:
      return 'Pending';
  }
}
