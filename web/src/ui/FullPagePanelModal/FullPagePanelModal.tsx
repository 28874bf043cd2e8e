import { useId, useState, type ReactNode } from 'react';
import { FullPageModal } from '../FullPageModal/FullPageModal';
import styles from './FullPagePanelModal.module.css';

export type FullPagePanelModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  leftPanel?: ReactNode;
  leftPanelLabel?: string;
  rightPanel?: ReactNode;
  rightPanelLabel?: string;
};

/**
 * A full-page modal with optional side panels. The left panel can be closed, reopened and
 * expanded; the right panel carries an Exit button that closes the modal.
 */
export function FullPagePanelModal({
  open,
  onClose,
  title,
  children,
  leftPanel,
  leftPanelLabel = 'Side panel',
  rightPanel,
  rightPanelLabel = 'Details panel',
}: FullPagePanelModalProps) {
  const leftPanelId = useId();
  const [leftPanelOpen, setLeftPanelOpen] = useState(true);
  const [leftPanelExpanded, setLeftPanelExpanded] = useState(false);

  return (
    <FullPageModal open={open} onClose={onClose} title={title}>
      <div className={styles.layout}>
        {leftPanel !== undefined && (
          <div className={styles.leftColumn}>
            <div className={styles.panelControls}>
              <button
                type="button"
                aria-expanded={leftPanelOpen}
                aria-controls={leftPanelId}
                onClick={() => setLeftPanelOpen((isOpen) => !isOpen)}
              >
                {leftPanelOpen ? 'Close side panel' : 'Open side panel'}
              </button>
              {leftPanelOpen && (
                <button
                  type="button"
                  aria-pressed={leftPanelExpanded}
                  onClick={() => setLeftPanelExpanded((e) => !e)}
                >
                  Expand side panel
                </button>
              )}
            </div>
            <aside
              id={leftPanelId}
              aria-label={leftPanelLabel}
              hidden={!leftPanelOpen}
              className={`${styles.leftPanel} ${leftPanelExpanded ? styles.expanded : ''}`}
            >
              {leftPanel}
            </aside>
          </div>
        )}
        <div className={styles.main}>{children}</div>
        {rightPanel !== undefined && (
          <aside aria-label={rightPanelLabel} className={styles.rightPanel}>
            <button type="button" className={styles.exit} onClick={onClose}>
              Exit
            </button>
            {rightPanel}
          </aside>
        )}
      </div>
    </FullPageModal>
  );
}
