import type { ThemeConfig } from 'antd';

/**
 * The console's antd theme. The build renders antd's styles with it ahead of time
 * (`vite-plugins/antd-static-style-plugin.ts`); a theme that differed at run time would make antd
 * generate every style again in the browser.
 */
export const consoleTheme: ThemeConfig = { token: { colorPrimary: '#5d2ca8' } };
