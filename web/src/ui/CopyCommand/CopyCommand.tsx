import { useToast } from '../Toast/Toast';
import styles from './CopyCommand.module.css';

export const COMMAND_COPIED_MESSAGE = 'Command Line Copied';

export type CopyCommandProps = {
  command: string;
};

/** A command line with a copy button. A failed copy is only logged. Needs a ToastProvider above. */
export function CopyCommand({ command }: CopyCommandProps) {
  const toast = useToast();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      toast({ content: COMMAND_COPIED_MESSAGE });
    } catch (error) {
      console.error(error);
    }
  };

  return (
    <div className={styles.commandLine}>
      <code className={styles.command}>{command}</code>
      <button type="button" className={styles.copy} aria-label="Copy command" onClick={copy}>
        Copy
      </button>
    </div>
  );
}
