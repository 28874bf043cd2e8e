export { Tabs, RouteTabs, DEFAULT_TAB_PARAM } from './Tabs';
export type { TabItem, TabsProps, RouteTabsProps } from './Tabs';
