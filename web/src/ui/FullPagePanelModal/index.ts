export { FullPagePanelModal } from './FullPagePanelModal';
export type { FullPagePanelModalProps } from './FullPagePanelModal';
