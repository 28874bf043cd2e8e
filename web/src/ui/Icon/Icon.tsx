import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type CSSProperties, type ReactElement } from 'react';

const reactAttr = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const attrsOf = (node: AbstractNode) =>
  Object.fromEntries(Object.entries(node.attrs).map(([k, v]) => [reactAttr(k), v]));

function render(node: AbstractNode, key?: number): ReactElement {
  return createElement(node.tag, { key, ...attrsOf(node) }, node.children?.map(render));
}

export type IconProps = {
  /** An icon of the console's one icon set: `@ant-design/icons-svg/es/asn/<Name>`. */
  icon: IconDefinition;
  /** Names the icon for assistive technology; without it the icon is decorative. */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
  rotate?: number;
};

/**
 * An icon of the console's icon set (Ant Design's, the set antd draws its own icons from) drawn
 * straight from its SVG definition. @ant-design/icons' React components would bring their
 * runtime (style injection, colour helpers) into every chunk that shows an icon; this needs none.
 */
export function Icon({ icon, 'aria-label': label, className, style, rotate }: IconProps) {
  if (typeof icon.icon === 'function') return null;
  const svg = icon.icon;
  return createElement(
    'svg',
    {
      ...attrsOf(svg),
      width: '1em',
      height: '1em',
      fill: 'currentColor',
      className,
      style: {
        verticalAlign: '-0.125em',
        ...(rotate ? { transform: `rotate(${rotate}deg)` } : {}),
        ...style,
      },
      'data-icon': icon.name,
      ...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true }),
    },
    svg.children?.map(render),
  );
}
