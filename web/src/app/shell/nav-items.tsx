import ApartmentOutlined from '@ant-design/icons-svg/es/asn/ApartmentOutlined';
import DatabaseOutlined from '@ant-design/icons-svg/es/asn/DatabaseOutlined';
import DeploymentUnitOutlined from '@ant-design/icons-svg/es/asn/DeploymentUnitOutlined';
import ExperimentOutlined from '@ant-design/icons-svg/es/asn/ExperimentOutlined';
import KeyOutlined from '@ant-design/icons-svg/es/asn/KeyOutlined';
import SettingOutlined from '@ant-design/icons-svg/es/asn/SettingOutlined';
import ThunderboltOutlined from '@ant-design/icons-svg/es/asn/ThunderboltOutlined';
import { Icon } from '../../ui/Icon/index.ts';
import type { SideNavItem } from '../../ui/SideNav/index.ts';

/** The project's screens in the side navigation; Lineage is the project's home. */
export function projectNavItems(project: string): SideNavItem[] {
  const p = encodeURIComponent(project);
  return [
    { to: `/lineage/${p}`, label: 'Lineage', icon: <Icon icon={ApartmentOutlined} /> },
    { to: `/project/${p}/repos`, label: 'Repositories', icon: <Icon icon={DatabaseOutlined} /> },
    {
      to: `/project/${p}/pipelines`,
      label: 'Pipelines',
      icon: <Icon icon={DeploymentUnitOutlined} />,
    },
    { to: `/project/${p}/jobs`, label: 'Jobs', icon: <Icon icon={ThunderboltOutlined} /> },
    { to: `/project/${p}/trials`, label: 'Trials', icon: <Icon icon={ExperimentOutlined} /> },
    { to: `/project/${p}/secrets`, label: 'Secrets', icon: <Icon icon={KeyOutlined} /> },
    { to: `/project/${p}/defaults`, label: 'Defaults', icon: <Icon icon={SettingOutlined} /> },
  ];
}
