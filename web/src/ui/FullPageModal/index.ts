export { FullPageModal } from './FullPageModal';
export type { FullPageModalProps } from './FullPageModal';
