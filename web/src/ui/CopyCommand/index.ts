export { CopyCommand, COMMAND_COPIED_MESSAGE } from './CopyCommand';
export type { CopyCommandProps } from './CopyCommand';
