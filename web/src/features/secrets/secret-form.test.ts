import { describe, expect, it } from 'vitest';
import { base64ToBytes, secretManifest } from '@ivory/api';
import { secretFormError } from './secret-form.ts';

describe('secretFormError', () => {
  it.each([
    ['db', [{ key: 'password', value: 'x' }], null],
    ['DB', [{ key: 'password', value: 'x' }], /lower-case/],
    ['db', [], /at least one/],
    ['db', [{ key: 'a b', value: 'x' }], /Invalid key/],
    [
      'db',
      [
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ],
      /twice/,
    ],
  ] as const)('%s %j', (name, pairs, expected) => {
    const error = secretFormError(name, pairs);
    if (expected === null) expect(error).toBeNull();
    else expect(error).toMatch(expected);
  });
});

describe('secret manifest', () => {
  it('is a v1 Secret whose data values decode to the input', () => {
    const manifest = secretManifest('db', [
      { key: 'user', value: 'admin' },
      { key: 'password', value: 'p@ss wörd' },
    ]);
    expect(manifest.kind).toBe('Secret');
    expect(manifest.apiVersion).toBe('v1');
    expect(manifest.metadata.name).toBe('db');
    expect(new TextDecoder().decode(base64ToBytes(manifest.data.password as string))).toBe(
      'p@ss wörd',
    );
    expect(JSON.stringify(manifest)).not.toContain('admin');
  });
});
