export { Modal, ConfirmModal } from './Modal';
export type { ModalProps, ConfirmModalProps } from './Modal';
export { DialogFrame, MODAL_EXIT_MS } from './DialogFrame';
export type { DialogFrameProps } from './DialogFrame';
