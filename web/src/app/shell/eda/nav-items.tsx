import DashboardOutlined from '@ant-design/icons-svg/es/asn/DashboardOutlined';
import PartitionOutlined from '@ant-design/icons-svg/es/asn/PartitionOutlined';
import ProfileOutlined from '@ant-design/icons-svg/es/asn/ProfileOutlined';
import ThunderboltOutlined from '@ant-design/icons-svg/es/asn/ThunderboltOutlined';
import ToolOutlined from '@ant-design/icons-svg/es/asn/ToolOutlined';
import { Icon } from '../../../ui/Icon/index.ts';
import type { SideNavItem } from '../../../ui/SideNav/index.ts';

/**
 * The benchmarking screens in the side navigation. The overview is `/` (and `/flows`, the same
 * screen); a list's entry stays current on its items (`/flow/yosys` under Flows).
 */
export const edaNavItems: SideNavItem[] = [
  {
    to: '/',
    label: 'Overview',
    icon: <Icon icon={DashboardOutlined} />,
    end: true,
    aliases: ['/flows'],
  },
  { to: '/bolt', label: 'Bolts', icon: <Icon icon={ThunderboltOutlined} /> },
  { to: '/flow', label: 'Flows', icon: <Icon icon={PartitionOutlined} /> },
  { to: '/case', label: 'Cases', icon: <Icon icon={ProfileOutlined} /> },
  { to: '/setup', label: 'Setup', icon: <Icon icon={ToolOutlined} /> },
];
