export { SideNav, SIDE_NAV_BREAKPOINT_PX, TOOLTIP_OFFSET_PX } from './SideNav';
export type { SideNavItem, SideNavProps } from './SideNav';
