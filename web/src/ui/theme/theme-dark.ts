import type { ThemeConfig } from 'antd';
// The algorithm alone: `theme` from antd's barrel would bring its other helpers into the entry.
import darkAlgorithm from 'antd/es/theme/themes/dark/index.js';
import { antdTokens } from './theme.ts';

/** The dark theme: antd's dark algorithm with the dark palette (tokens in theme.ts). */
export const consoleDarkTheme: ThemeConfig = {
  algorithm: darkAlgorithm,
  token: antdTokens('dark'),
};
