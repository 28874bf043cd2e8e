import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Group,
  Panel,
  Separator,
  useParentGroup,
  type Layout,
  type LayoutChangedMeta,
  type PanelProps,
  type ParentGroup,
} from 'react-resizable-panels';
import styles from './ResizablePanels.module.css';

export const PANEL_LAYOUT_SAVE_DEBOUNCE_MS = 100;
/** Arrow keys on a resize handle move it by this share of the group; with Shift, all the way. */
export const KEYBOARD_RESIZE_STEP_PERCENT = 10;
export const KEYBOARD_RESIZE_SHIFT_STEP_PERCENT = 100;
/** Smallest hit area of a resize handle in pixels, for touch (coarse) and mouse (fine) pointers. */
export const RESIZE_TARGET_MINIMUM_SIZE = { coarse: 15, fine: 5 };

export function panelLayoutStorageKey(saveId: string): string {
  return `ivory:panel-layout:${saveId}`;
}

function readSavedLayout(saveId: string): Layout | undefined {
  try {
    const saved: unknown = JSON.parse(
      localStorage.getItem(panelLayoutStorageKey(saveId)) ?? 'null',
    );
    if (
      saved &&
      typeof saved === 'object' &&
      Object.values(saved).every((size) => typeof size === 'number')
    ) {
      return saved as Layout;
    }
  } catch {
    // An unreadable saved layout is ignored; the panels' default sizes apply.
  }
  return undefined;
}

export type ResizablePanelsProps = {
  /** Remembers the layout in localStorage under this id. Panels need stable `id`s for it. */
  saveId?: string;
  className?: string;
  children: ReactNode;
};

/** A horizontal group of ResizablePanel and PanelResizeHandle children. */
export function ResizablePanels({ saveId, className, children }: ResizablePanelsProps) {
  const [savedLayout] = useState(() => (saveId ? readSavedLayout(saveId) : undefined));
  const saveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(saveTimer.current), []);

  const saveLayout = (layout: Layout, meta: LayoutChangedMeta) => {
    if (!saveId) return;
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      localStorage.setItem(
        panelLayoutStorageKey(saveId),
        JSON.stringify(meta.requestedLayout ?? layout),
      );
    }, PANEL_LAYOUT_SAVE_DEBOUNCE_MS);
  };

  return (
    <Group
      orientation="horizontal"
      className={`${styles.group} ${className ?? ''}`}
      defaultLayout={savedLayout}
      onLayoutChanged={saveLayout}
      resizeTargetMinimumSize={RESIZE_TARGET_MINIMUM_SIZE}
    >
      {children}
    </Group>
  );
}

/** The enclosing panel group; throws when called outside ResizablePanels. */
export function usePanelGroup(): ParentGroup {
  const group = useParentGroup();
  if (!group)
    throw new Error('Panel components must be used within a panel group (ResizablePanels)');
  return group;
}

export type ResizablePanelProps = PanelProps & { id: string };

/**
 * A panel of ResizablePanels. Sizes given as strings are percentages ("30"), numbers are pixels;
 * min/max/collapsible constraints are enforced by the group, which keeps the total at 100%.
 */
export function ResizablePanel(props: ResizablePanelProps) {
  usePanelGroup();
  return <Panel {...props} />;
}

function adjacentPanelId(
  separator: Element,
  direction: 'previousElementSibling' | 'nextElementSibling',
) {
  let element = separator[direction];
  while (element && !element.hasAttribute('data-panel')) element = element[direction];
  return element?.id;
}

/**
 * A focusable handle between two panels. Left/Right move it by KEYBOARD_RESIZE_STEP_PERCENT (with
 * Shift, KEYBOARD_RESIZE_SHIFT_STEP_PERCENT); Home, End, Enter (collapse/expand) and F6 keep the
 * library's behaviour.
 */
export function PanelResizeHandle({
  'aria-label': ariaLabel = 'Resize panels',
}: {
  'aria-label'?: string;
}) {
  const group = usePanelGroup();
  const [element, setElement] = useState<HTMLDivElement | null>(null);

  useEffect(() => {
    if (!element) return;
    // Runs in the capture phase so it comes before the library's own 5% arrow-key handler,
    // which skips events whose default was prevented.
    const resizeByKeyboard = (event: KeyboardEvent) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      const beforeId = adjacentPanelId(element, 'previousElementSibling');
      const afterId = adjacentPanelId(element, 'nextElementSibling');
      if (!beforeId || !afterId) return;
      const layout = group.getLayout();
      const before = layout[beforeId] ?? 0;
      const after = layout[afterId] ?? 0;
      const step = event.shiftKey
        ? KEYBOARD_RESIZE_SHIFT_STEP_PERCENT
        : KEYBOARD_RESIZE_STEP_PERCENT;
      const delta = Math.min(Math.max(event.key === 'ArrowRight' ? step : -step, -before), after);
      group.setLayout({ ...layout, [beforeId]: before + delta, [afterId]: after - delta });
    };
    element.addEventListener('keydown', resizeByKeyboard, { capture: true });
    return () => element.removeEventListener('keydown', resizeByKeyboard, { capture: true });
  }, [element, group]);

  return <Separator elementRef={setElement} aria-label={ariaLabel} className={styles.handle} />;
}
