import { Alert, Button, Flex, Input, List, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { AuthResource, Permission } from '@ivory/api';
import { testIds } from '../../test-ids.ts';
import { useAuthorize, useModifyRoleBinding, useRoleBinding } from './api.ts';

const ROLE_CHOICES: Record<AuthResource['type'], string[]> = {
  CLUSTER: ['clusterAdmin', 'projectCreator'],
  PROJECT: ['projectViewer', 'projectWriter', 'projectOwner'],
  REPO: ['repoReader', 'repoWriter', 'repoOwner'],
};

const MODIFY_PERMISSION: Record<AuthResource['type'], Permission> = {
  CLUSTER: 'CLUSTER_MODIFY_BINDINGS',
  PROJECT: 'PROJECT_MODIFY_BINDINGS',
  REPO: 'REPO_MODIFY_BINDINGS',
};

/** `alice@example.com` → `user:alice@example.com`; a principal with a prefix stays as is. */
export function principalFromInput(text: string): string {
  const value = text.trim();
  if (!value) return '';
  return /^(user|robot|group):/.test(value) || value === 'allClusterUsers'
    ? value
    : `user:${value}`;
}

/**
 * Who may use a project or repo: its role binding (list), grant a role to a user, revoke one.
 * Shown only with sign-in on; granting and revoking need the resource's MODIFY_BINDINGS
 * permission, and say so when it is missing.
 */
export function RolesPanel({ resource }: { resource: AuthResource }) {
  const binding = useRoleBinding(resource);
  const modify = useModifyRoleBinding(resource);
  const canModify = useAuthorize(resource, [MODIFY_PERMISSION[resource.type]]);
  const choices = ROLE_CHOICES[resource.type];
  const [principal, setPrincipal] = useState('');
  const [role, setRole] = useState(choices[0]!);

  if (binding.isPending) return null;
  if (binding.error)
    return <Alert type="error" showIcon message={`Roles: ${binding.error.message}`} />;
  if (binding.data === null) return null;

  const entries = Object.entries(binding.data.entries ?? {}).map(([who, value]) => ({
    who,
    roles: Object.keys(value.roles ?? {}).filter((name) => value.roles?.[name]),
  }));
  const disabledReason =
    canModify.allowed === false
      ? `Only an owner can change roles here (${MODIFY_PERMISSION[resource.type]}).`
      : '';
  const setRoles = (who: string, roles: string[]) => modify.mutate({ principal: who, roles });

  return (
    <div data-testid={testIds.rolesPanel}>
      <Typography.Title level={5}>Roles</Typography.Title>
      <List
        size="small"
        dataSource={entries}
        locale={{ emptyText: 'No roles bound here' }}
        renderItem={({ who, roles }) => (
          <List.Item data-testid={testIds.roleRow} data-principal={who}>
            <span style={{ flex: 1 }}>{who}</span>
            {roles.map((name) => (
              <Tag
                key={name}
                closable={!disabledReason}
                onClose={(event) => {
                  event.preventDefault();
                  setRoles(
                    who,
                    roles.filter((other) => other !== name),
                  );
                }}
                closeIcon={
                  <span data-testid={testIds.roleRevoke} aria-label={`Revoke ${name} from ${who}`}>
                    ×
                  </span>
                }
              >
                {name}
              </Tag>
            ))}
          </List.Item>
        )}
      />
      <Flex gap={8} style={{ marginTop: 8 }}>
        <Input
          data-testid={testIds.rolePrincipal}
          placeholder="user email"
          value={principal}
          disabled={Boolean(disabledReason)}
          onChange={(event) => setPrincipal(event.target.value)}
        />
        <Select
          data-testid={testIds.roleSelect}
          value={role}
          disabled={Boolean(disabledReason)}
          onChange={setRole}
          options={choices.map((name) => ({ value: name, label: name }))}
          style={{ minWidth: 150 }}
        />
        <Button
          data-testid={testIds.roleGrant}
          type="primary"
          disabled={Boolean(disabledReason) || !principalFromInput(principal)}
          loading={modify.isPending}
          onClick={() => {
            const who = principalFromInput(principal);
            const current = entries.find((entry) => entry.who === who)?.roles ?? [];
            setRoles(who, [...new Set([...current, role])]);
            setPrincipal('');
          }}
        >
          Grant
        </Button>
      </Flex>
      {disabledReason ? (
        <Typography.Text type="secondary" data-testid={testIds.permissionReason}>
          {disabledReason}
        </Typography.Text>
      ) : null}
      {modify.error ? <Alert type="error" showIcon message={modify.error.message} /> : null}
    </div>
  );
}
