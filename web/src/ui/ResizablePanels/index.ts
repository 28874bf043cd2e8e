export {
  ResizablePanels,
  ResizablePanel,
  PanelResizeHandle,
  usePanelGroup,
  panelLayoutStorageKey,
  PANEL_LAYOUT_SAVE_DEBOUNCE_MS,
  KEYBOARD_RESIZE_STEP_PERCENT,
  KEYBOARD_RESIZE_SHIFT_STEP_PERCENT,
  RESIZE_TARGET_MINIMUM_SIZE,
} from './ResizablePanels';
export type { ResizablePanelsProps, ResizablePanelProps } from './ResizablePanels';
