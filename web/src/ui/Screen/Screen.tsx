import { Grid } from 'antd';
import { use, type CSSProperties, type HTMLAttributes } from 'react';
import { ScreenFrameContext } from './screen-frame-context';

/** The id of the page's <main>, where the skip link sends focus. */
export const MAIN_CONTENT_ID = 'main-content';

/** A screen's padding when no shell frames it; on phone-sized windows (under 576 px), less. */
export const SCREEN_PADDING_PX = { wide: 24, phone: 16 };

export type ScreenProps = HTMLAttributes<HTMLElement> & {
  /**
   * A full-height screen (the lineage): exactly as tall as the window leaves it under the top bar
   * (and a shell's breadcrumbs), so what it stretches (a graph) fills the rest without the page
   * scrolling. On phone-sized windows it takes its content's height.
   */
  fill?: boolean;
};

/**
 * The root of every screen. Alone (sign-in, /cluster, not-found) it is the page's <main> with
 * the page padding; inside a shell's frame, which is the <main> and pads it, a plain block.
 * `style` adds to (and may override) the padding.
 */
export function Screen({ fill = false, style, ...props }: ScreenProps) {
  const framed = use(ScreenFrameContext);
  const phone = Grid.useBreakpoint().sm === false;
  const fillStyle: CSSProperties | undefined =
    fill && !phone
      ? framed
        ? { flex: 1, minHeight: 0 }
        : { height: 'calc(100vh - var(--ivory-header-height))', boxSizing: 'border-box' }
      : undefined;
  const data = { 'data-screen-fill': fill && !phone ? '' : undefined };
  if (framed) return <div {...data} {...props} style={{ ...fillStyle, ...style }} />;
  const padding = phone ? SCREEN_PADDING_PX.phone : SCREEN_PADDING_PX.wide;
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      {...data}
      {...props}
      style={{ padding, ...fillStyle, ...style }}
    />
  );
}
