import { Button, Modal } from 'antd';

export const UNFINISHED_TITLE = 'Finish the upload?';
export const UNFINISHED_TEXT = 'Finish commits them to the bolt; Discard drops them.';

export interface UnfinishedUploadDialogProps {
  open: boolean;
  /** The number of uploaded (not yet committed) files. */
  uploaded: number;
  finishing: boolean;
  onFinish: () => void;
  onDiscard: () => void;
  /** Back to the upload modal (Escape, ×, "Keep editing"). */
  onStay: () => void;
}

/**
 * Asked when the upload modal is closed (×, Escape, a route change) while uploaded files are not
 * finished: Finish (the default, focused) or Discard.
 */
export function UnfinishedUploadDialog({
  open,
  uploaded,
  finishing,
  onFinish,
  onDiscard,
  onStay,
}: UnfinishedUploadDialogProps) {
  return (
    <Modal
      open={open}
      title={UNFINISHED_TITLE}
      onCancel={onStay}
      maskClosable={false}
      destroyOnHidden
      data-testid="eda-upload-unfinished"
      footer={[
        <Button key="stay" onClick={onStay} disabled={finishing}>
          Keep editing
        </Button>,
        <Button key="discard" danger onClick={onDiscard} disabled={finishing}>
          Discard
        </Button>,
        <Button key="finish" type="primary" autoFocus loading={finishing} onClick={onFinish}>
          Finish
        </Button>,
      ]}
    >
      <p>
        {uploaded === 1 ? '1 file is' : `${uploaded} files are`} uploaded but not committed yet.
      </p>
      <p>{UNFINISHED_TEXT}</p>
    </Modal>
  );
}
