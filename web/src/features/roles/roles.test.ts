import { describe, expect, it } from 'vitest';
import { missingPermissionReason } from './permission-reasons.ts';
import { principalFromInput } from './RolesPanel.tsx';

describe('principalFromInput', () => {
  it('makes an email a user principal and keeps prefixed principals', () => {
    expect(principalFromInput(' bob@example.com ')).toBe('user:bob@example.com');
    expect(principalFromInput('robot:ci')).toBe('robot:ci');
    expect(principalFromInput('user:a@b.c')).toBe('user:a@b.c');
    expect(principalFromInput('allClusterUsers')).toBe('allClusterUsers');
    expect(principalFromInput('   ')).toBe('');
  });
});

describe('missingPermissionReason', () => {
  it('says which role an upload needs', () => {
    expect(missingPermissionReason(['REPO_WRITE'])).toMatch(/repoWriter role to upload/);
    expect(missingPermissionReason(['JOB_SKIP_CTX'])).toBe(
      'You need the JOB_SKIP_CTX permission for this.',
    );
    expect(missingPermissionReason([])).toBe('You do not have permission for this.');
  });
});
