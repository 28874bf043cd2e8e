import { decodeSegment, finish, type Crumb } from '../crumbs.ts';

/** Each benchmarking section's name and list; an upload (`/updatebolt/:name`) is under Bolts. */
const sections = new Map<string, Crumb>([
  ['bolt', { label: 'Bolts', to: '/bolt' }],
  ['updatebolt', { label: 'Bolts', to: '/bolt' }],
  ['flow', { label: 'Flows', to: '/flow' }],
  ['case', { label: 'Cases', to: '/case' }],
  ['setup', { label: 'Setup', to: '/setup' }],
]);

/**
 * The benchmarking shell's breadcrumbs, read from the path: Benchmarking › section › item
 * (`/flow/yosys`: Benchmarking › Flows › yosys). The overview (`/`, `/flows`) has none.
 */
export function edaCrumbsOf(pathname: string): Crumb[] {
  const [section = '', name] = pathname.split('/').filter(Boolean).map(decodeSegment);
  const found = sections.get(section);
  if (!found) return [];
  const crumbs: Crumb[] = [{ label: 'Benchmarking', to: '/' }, { ...found }];
  if (name) crumbs.push({ label: section === 'updatebolt' ? `Upload to ${name}` : name });
  return finish(crumbs);
}
