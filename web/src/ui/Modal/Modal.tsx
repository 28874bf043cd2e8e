import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import { Icon } from '../Icon/index.ts';
import { useId, type ReactNode } from 'react';
import { Button } from 'antd';
import { DialogFrame } from './DialogFrame';
import styles from './Modal.module.css';

export type ModalProps = {
  open: boolean;
  /** Called on Escape, Cancel, the close button and a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  onConfirm?: () => void;
  confirmText?: string;
  cancelText?: string;
  hideConfirm?: boolean;
  hideCancel?: boolean;
  confirmLoading?: boolean;
  confirmDisabled?: boolean;
  className?: string;
};

export function Modal({
  open,
  onClose,
  title,
  children,
  onConfirm,
  confirmText = 'Confirm',
  cancelText = 'Cancel',
  hideConfirm = false,
  hideCancel = false,
  confirmLoading = false,
  confirmDisabled = false,
  className,
}: ModalProps) {
  const titleId = useId();
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      titleId={titleId}
      dialogClassName={`${styles.modal} ${className ?? ''}`}
    >
      <header className={styles.header}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <button type="button" className={styles.close} aria-label="Close" onClick={onClose}>
          <Icon icon={CloseOutlined} />
        </button>
      </header>
      <div className={styles.body}>{children}</div>
      {!(hideConfirm && hideCancel) && (
        <footer className={styles.footer}>
          {!hideCancel && <Button onClick={onClose}>{cancelText}</Button>}
          {!hideConfirm && (
            <Button
              type="primary"
              loading={confirmLoading}
              disabled={confirmDisabled}
              onClick={onConfirm}
            >
              {confirmText}
            </Button>
          )}
        </footer>
      )}
    </DialogFrame>
  );
}

export type ConfirmModalProps = {
  open: boolean;
  title: ReactNode;
  text: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmText?: string;
  cancelText?: string;
  confirmLoading?: boolean;
};

/** A yes/no question, e.g. title 'Clear uploaded files' with choices 'YES' / 'NO'. */
export function ConfirmModal({ text, onCancel, ...rest }: ConfirmModalProps) {
  return (
    <Modal {...rest} onClose={onCancel}>
      <p className={styles.text}>{text}</p>
    </Modal>
  );
}
