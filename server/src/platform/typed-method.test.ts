import { metadata, omni_v1, pfs_v2 } from '@ivory/api/proto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { unary } from './platform.ts';
import { decodeJsonRequest, messageFromJson, safeNumber, typedUnary } from './typed-method.ts';

const failure = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
};

describe('typed methods', () => {
  it('decodes the gateway JSON leniently into the request message', () => {
    const method = typedUnary(pfs_v2.ListCommitRequestSchema, async (request) => request);
    const request = decodeJsonRequest(method, {
      repo: { name: 'images', project: { name: 'p' } },
      number: 2,
      origin_kind: 'USER',
      unknown_field: true,
    }) as pfs_v2.ListCommitRequest;
    expect(request.$typeName).toBe('pfs_v2.ListCommitRequest');
    expect(request.repo?.name).toBe('images');
    expect(request.repo?.project?.name).toBe('p');
    expect(request.number).toBe(2n);
    expect(request.originKind).toBe(pfs_v2.OriginKind.USER);
    const byNumber = messageFromJson(pfs_v2.ListCommitRequestSchema, {
      number: '3',
      originKind: 2,
    });
    expect(byNumber.number).toBe(3n);
    expect(byNumber.originKind).toBe(2);
  });

  it('names the field that does not fit, with code 3', () => {
    const wrong = failure(() =>
      messageFromJson(pfs_v2.CreateRepoRequestSchema, { repo: { name: 42 } }),
    );
    expect(wrong).toBeInstanceOf(ApiError);
    expect(wrong.code).toBe(3);
    expect(wrong.message).toMatch(/^repo\.name: /);
    const nested = failure(() =>
      messageFromJson(metadata.EditMetadataRequestSchema, {
        edits: [{ cluster: {}, replace: {} }, { add_key: { key: ['k'] } }],
      }),
    );
    expect(nested.message).toMatch(/^edits\[1\]\.addKey\.key: /);
    expect(failure(() => messageFromJson(pfs_v2.ListCommitRequestSchema, [])).message).toMatch(
      /^pfs_v2\.ListCommitRequest: /,
    );
  });

  it('refuses an enum name its enum does not have, naming the field (ignoreUnknownFields would drop it)', () => {
    const top = failure(() =>
      messageFromJson(pfs_v2.ListCommitRequestSchema, { origin_kind: 'SOMETIMES' }),
    );
    expect(top.code).toBe(3);
    expect(top.message).toMatch(/^originKind must be one of .*USER.*, not "SOMETIMES"$/);
    const nested = failure(() =>
      messageFromJson(omni_v1.ListTrialRequestSchema, {
        filters: [
          { field: 'flow', operator: 'EQ' },
          { field: 'author', operator: 'ABOUT' },
        ],
      }),
    );
    expect(nested.message).toMatch(/^filters\[1\]\.operator must be one of EQ, NEQ/);
    // Known names, numbers and unknown fields still pass.
    const fine = messageFromJson(omni_v1.ListTrialRequestSchema, {
      filters: [
        { field: 'flow', operator: 'GTE' },
        { field: 'flow', operator: 1 },
      ],
      whatever: 'x',
    });
    expect(fine.filters.map((f) => f.operator)).toEqual([3, 1]);
  });

  it('passes the JSON as sent to a method without a schema (no platform method is one)', () => {
    const method = unary(async (request) => request);
    expect(decodeJsonRequest(method, { origin_kind: 'USER' })).toEqual({ origin_kind: 'USER' });
  });

  it('refuses int64 values a number cannot hold', () => {
    expect(safeNumber(5n, 'number')).toBe(5);
    expect(failure(() => safeNumber(2n ** 60n, 'number')).code).toBe(3);
  });
});
