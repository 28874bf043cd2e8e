import { describe, expect, it } from 'vitest';
import { ApiError } from '@ivory/api';
import { boltErrorMessage } from './bolt-errors.ts';

describe('boltErrorMessage', () => {
  it('speaks of bolts when the name is taken', () => {
    const error = new ApiError(6, 'repo soc1 already exists in project eda', [], 409);
    expect(boltErrorMessage(error, 'soc1')).toBe('bolt soc1 already exists');
  });

  it('says bolt where the platform says repo', () => {
    const error = new ApiError(3, 'repo name must not be empty; see the Repos page', [], 400);
    expect(boltErrorMessage(error, '')).toBe('bolt name must not be empty; see the bolts page');
  });
});
