import { extractStyle } from '@ant-design/static-style-extract';
import * as antd from 'antd';
import { createElement, type ReactElement } from 'react';
import { consoleTheme } from '../src/ui/theme/theme.ts';

const h = createElement;

/**
 * The antd components the console's screens draw on their first paint (projects, repos, commits
 * and files, previews, pipelines, jobs), each as the elements whose styles the build writes ahead
 * of time. A component registers one style per variant it may draw (a preset tag colour, a search
 * box), hence several elements for some. Every page load parses this stylesheet, so components
 * drawn only in dialogs and secondary screens keep generating their styles when first drawn.
 */
export const staticStyleElements: Record<string, () => ReactElement[]> = {
  Alert: () => [h(antd.Alert, { message: '' })],
  Breadcrumb: () => [h(antd.Breadcrumb, { items: [{ title: 'a' }, { title: 'b' }] })],
  Button: () => [h(antd.Button)],
  Descriptions: () => [h(antd.Descriptions)],
  Empty: () => [h(antd.Empty)],
  Flex: () => [h(antd.Flex)],
  Input: () => [h(antd.Input.Search)],
  List: () => [h(antd.List)],
  Segmented: () => [h(antd.Segmented, { options: ['a'] })],
  Select: () => [h(antd.Select)],
  Space: () => [h(antd.Space)],
  Spin: () => [h(antd.Spin)],
  Table: () => [h(antd.Table), h(antd.Pagination)],
  Tag: () => [h(antd.Tag), h(antd.Tag, { color: 'blue' })],
  Tooltip: () => [h(antd.Tooltip, { title: 'a' }, h('span'))],
  Typography: () => [h(antd.Typography)],
};

/**
 * The other antd exports the console imports, whose styles antd still generates in the browser
 * when they are first drawn, and why.
 */
export const runtimeStyleExports: Record<string, string> = {
  AutoComplete: 'forms in dialogs',
  Card: 'secondary screens',
  Checkbox: 'forms in dialogs',
  Col: 'forms in dialogs',
  ConfigProvider: 'draws no element of its own',
  Drawer: 'side panels, drawn when opened, into a portal',
  Form: 'forms in dialogs',
  Grid: 'a breakpoint hook (useBreakpoint): draws no element of its own',
  Modal: 'drawn when opened, into a portal',
  Progress: 'uploads',
  Result: 'error screens',
  Row: 'forms in dialogs',
  Skeleton: 'secondary screens',
  Statistic: 'secondary screens',
  Steps: 'secondary screens',
  Upload: 'uploads',
  message: 'drawn when a message shows, into a portal',
};

/**
 * The CSS of the console's antd components in the console's theme, as antd would write it at run
 * time, ending with the rule through which antd finds out, at run time, which styles the page
 * already has and need not be generated again.
 */
export function consoleAntdCss(): string {
  const elements = Object.values(staticStyleElements).flatMap((render) => render());
  return extractStyle(() => h(antd.ConfigProvider, { theme: consoleTheme }, ...elements));
}
