import { createContext } from 'react';

/**
 * True inside a shell's frame (ShellFrame): the shell already draws the page's <main> and its
 * padding, so a Screen inside it adds neither.
 */
export const ScreenFrameContext = createContext(false);
