import ArrowLeftOutlined from '@ant-design/icons-svg/es/asn/ArrowLeftOutlined';
import ArrowsAltOutlined from '@ant-design/icons-svg/es/asn/ArrowsAltOutlined';
import MenuFoldOutlined from '@ant-design/icons-svg/es/asn/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons-svg/es/asn/MenuUnfoldOutlined';
import ShrinkOutlined from '@ant-design/icons-svg/es/asn/ShrinkOutlined';
import { Button } from 'antd';
import { useId, useState, type ReactNode } from 'react';
import { FullPageModal } from '../FullPageModal/FullPageModal';
import { Icon } from '../Icon/index.ts';
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
 * expanded (icon buttons named for what they do, the name also their tooltip); the right panel
 * carries an Exit button that closes the modal.
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
  const toggleLabel = leftPanelOpen ? 'Close side panel' : 'Open side panel';

  return (
    <FullPageModal open={open} onClose={onClose} title={title}>
      <div className={styles.layout}>
        {leftPanel !== undefined && (
          <div className={styles.leftColumn}>
            <div className={styles.panelControls}>
              <Button
                type="text"
                size="small"
                aria-expanded={leftPanelOpen}
                aria-controls={leftPanelId}
                aria-label={toggleLabel}
                title={toggleLabel}
                icon={<Icon icon={leftPanelOpen ? MenuFoldOutlined : MenuUnfoldOutlined} />}
                onClick={() => setLeftPanelOpen((isOpen) => !isOpen)}
              />
              {leftPanelOpen && (
                // One name with aria-pressed, as a toggle button keeps; the icon and the tooltip
                // show which way it goes.
                <Button
                  type="text"
                  size="small"
                  className={styles.expandToggle}
                  aria-pressed={leftPanelExpanded}
                  aria-label="Expand side panel"
                  title={leftPanelExpanded ? 'Collapse side panel' : 'Expand side panel'}
                  icon={<Icon icon={leftPanelExpanded ? ShrinkOutlined : ArrowsAltOutlined} />}
                  onClick={() => setLeftPanelExpanded((e) => !e)}
                />
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
            <div className={styles.rightPanelControls}>
              <Button size="small" icon={<Icon icon={ArrowLeftOutlined} />} onClick={onClose}>
                Exit
              </Button>
            </div>
            {rightPanel}
          </aside>
        )}
      </div>
    </FullPageModal>
  );
}
