import { describe, expect, it } from 'vitest';
import type { Trial } from '@ivory/api';
import { trialFixture } from './test-fixtures.ts';
import {
  columnValue,
  decodeFilter,
  discoveredFields,
  filtersFromRows,
  parseKeyValueLines,
  searchFromView,
  viewFromSearch,
  type FilterRow,
  type TrialsView,
} from './trial-view.ts';

describe('filter builder rows → TrialFilter list', () => {
  const cases: Array<{ name: string; rows: FilterRow[]; expected: unknown }> = [
    { name: 'no rows', rows: [], expected: [] },
    {
      name: 'rows without a field are dropped, fields and values trimmed',
      rows: [
        { field: ' metric.accuracy ', operator: 'GT', value: ' 0.5 ' },
        { field: '', operator: 'EQ', value: 'x' },
        { field: 'state', operator: 'EQ', value: 'STARTED' },
      ],
      expected: [
        { field: 'metric.accuracy', operator: 'GT', value: '0.5' },
        { field: 'state', operator: 'EQ', value: 'STARTED' },
      ],
    },
    {
      name: 'an empty value is kept (EQ "" matches an empty case)',
      rows: [{ field: 'case', operator: 'EQ', value: '' }],
      expected: [{ field: 'case', operator: 'EQ', value: '' }],
    },
  ];
  for (const { name, rows, expected } of cases)
    it(name, () => expect(filtersFromRows(rows)).toEqual(expected));
});

describe('view ⇄ URL query', () => {
  const views: TrialsView[] = [
    { flow: '', case: '', filters: [], orderBy: [], columns: null },
    {
      flow: 'demo',
      case: 'c 1',
      filters: [
        { field: 'metric.accuracy', operator: 'GT', value: '0.5' },
        { field: 'param.lr', operator: 'LTE', value: '1e-3' },
        { field: 'description', operator: 'LIKE', value: '%a:b EQ:c%' },
        { field: 'label.team', operator: 'NEQ', value: '' },
        { field: 'created', operator: 'GTE', value: '2025-01-01T00:00:00Z' },
      ],
      orderBy: [
        { field: 'metric.accuracy', order: 'DESC' },
        { field: 'created', order: 'ASC' },
      ],
      columns: ['param.lr', 'metric.accuracy'],
    },
    { flow: '', case: '', filters: [], orderBy: [], columns: [] },
  ];
  for (const view of views)
    it(`round-trips ${JSON.stringify(view).slice(0, 60)}…`, () => {
      const url = searchFromView(view).toString();
      expect(viewFromSearch(new URLSearchParams(url))).toEqual(view);
    });

  it('writes a readable query', () => {
    const search = searchFromView({
      flow: 'demo',
      case: '',
      filters: [{ field: 'metric.accuracy', operator: 'GT', value: '0.5' }],
      orderBy: [{ field: 'metric.accuracy', order: 'DESC' }],
      columns: null,
    });
    expect(decodeURIComponent(search.toString())).toBe(
      'flow=demo&f=metric.accuracy:GT:0.5&sort=metric.accuracy:DESC',
    );
  });

  it('skips malformed filters and sort keys', () => {
    const view = viewFromSearch(
      new URLSearchParams('f=nope&f=state:XX:1&f=state:EQ:PENDING&sort=created:UP,flow'),
    );
    expect(view.filters).toEqual([{ field: 'state', operator: 'EQ', value: 'PENDING' }]);
    expect(view.orderBy).toEqual([{ field: 'flow', order: 'ASC' }]);
    expect(decodeFilter('param.a:GTE:1')).toEqual({
      field: 'param.a',
      operator: 'GTE',
      value: '1',
    });
  });
});

describe('discovered fields and columns', () => {
  const trials = [
    trialFixture('a', {
      parameters: { lr: '0.1', epochs: '3' },
      labels: { team: 'x' },
      metrics: [{ name: 'accuracy', value: 0.25, step: '0', history: [] }],
    }),
    trialFixture('b', { parameters: { batch: '8' } }),
  ];
  it('collects param., label. and metric. names with the flow defaults', () => {
    expect(discoveredFields(trials, ['seed'])).toEqual({
      params: ['param.batch', 'param.epochs', 'param.lr', 'param.seed'],
      labels: ['label.team'],
      metrics: ['metric.accuracy'],
    });
  });
  it('reads a column value per trial', () => {
    const [first, second] = trials as [Trial, Trial];
    expect(columnValue(first, 'param.lr')).toBe('0.1');
    expect(columnValue(first, 'metric.accuracy')).toBe('0.25');
    expect(columnValue(first, 'label.team')).toBe('x');
    expect(columnValue(second, 'param.lr')).toBe('');
  });
  it('parses key=value lines', () => {
    expect(parseKeyValueLines('a=1\n\n b = two=2 \nflag')).toEqual({
      a: '1',
      b: 'two=2',
      flag: '',
    });
  });
});
