import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import { Icon } from '../Icon/index.ts';
import { useId, type ReactNode } from 'react';
import { DialogFrame } from '../Modal/DialogFrame';
import styles from './FullPageModal.module.css';

export type FullPageModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
};

/** A dialog covering the whole viewport, with the same focus, Escape and exit behaviour as Modal. */
export function FullPageModal({ open, onClose, title, children }: FullPageModalProps) {
  const titleId = useId();
  return (
    <DialogFrame open={open} onClose={onClose} titleId={titleId} dialogClassName={styles.fullPage}>
      <header className={styles.header}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <button type="button" className={styles.close} aria-label="Close" onClick={onClose}>
          <Icon icon={CloseOutlined} />
        </button>
      </header>
      <div className={styles.body}>{children}</div>
    </DialogFrame>
  );
}
