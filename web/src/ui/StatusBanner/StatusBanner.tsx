import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import { Icon } from '../Icon/index.ts';
import type { ReactNode } from 'react';
import styles from './StatusBanner.module.css';

export type StatusBannerVariant = 'success' | 'error' | 'updating';

export type StatusBannerProps = {
  variant: StatusBannerVariant;
  children: ReactNode;
  onDismiss?: () => void;
};

/** Errors are announced at once (role=alert); success and updating politely (role=status). */
export function StatusBanner({ variant, children, onDismiss }: StatusBannerProps) {
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      aria-busy={variant === 'updating'}
      data-variant={variant}
      className={`${styles.banner} ${styles[variant]}`}
    >
      {variant === 'updating' && <span className={styles.spinner} aria-hidden="true" />}
      <span className={styles.message}>{children}</span>
      {onDismiss && (
        <button type="button" className={styles.dismiss} aria-label="Dismiss" onClick={onDismiss}>
          <Icon icon={CloseOutlined} />
        </button>
      )}
    </div>
  );
}
