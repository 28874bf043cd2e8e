import { describe, expect, it } from 'vitest';
import type { DatumInfo, DatumState } from '@ivory/api';
import { countDatumStates, orderDatums } from './datum-order.ts';

const datum = (id: string, state: DatumState) =>
  ({
    datum: { id, job: null },
    state,
    stats: null,
    pfsState: null,
    data: [],
    imageId: '',
  }) as DatumInfo;

const cases: Array<{ name: string; states: DatumState[]; expected: string[] }> = [
  { name: 'all states, failed first', states: [], expected: ['b', 'e', 'd', 'f', 'a', 'c'] },
  { name: 'only failed', states: ['FAILED'], expected: ['b', 'e'] },
  { name: 'success and skipped', states: ['SUCCESS', 'SKIPPED'], expected: ['a', 'c'] },
];

describe('orderDatums', () => {
  const datums = [
    datum('a', 'SUCCESS'),
    datum('e', 'FAILED'),
    datum('c', 'SKIPPED'),
    datum('b', 'FAILED'),
    datum('f', 'RECOVERED'),
    datum('d', 'STARTING'),
  ];
  it.each(cases)('$name', ({ states, expected }) => {
    expect(orderDatums(datums, states).map((d) => d.datum.id)).toEqual(expected);
  });
  it('counts states', () => {
    expect(countDatumStates(datums)).toEqual({
      SUCCESS: 1,
      FAILED: 2,
      SKIPPED: 1,
      RECOVERED: 1,
      STARTING: 1,
    });
  });
});
