import { Button, Drawer } from 'antd';
import { useState } from 'react';
import { testIds } from '../../test-ids.ts';
import { projectResource, useRoleBinding } from './api.ts';
import { RolesPanel } from './RolesPanel.tsx';

/** "Roles" on a project's screen: opens the project's Roles panel (sign-in on only). */
export function ProjectRolesButton({ project }: { project: string }) {
  const resource = projectResource(project);
  const binding = useRoleBinding(resource);
  const [open, setOpen] = useState(false);
  if (!binding.data) return null;
  return (
    <>
      <Button data-testid={testIds.rolesOpen} onClick={() => setOpen(true)}>
        Roles
      </Button>
      {open ? (
        <Drawer open onClose={() => setOpen(false)} title={`Roles: ${project}`} width={520}>
          <RolesPanel resource={resource} />
        </Drawer>
      ) : null}
    </>
  );
}
