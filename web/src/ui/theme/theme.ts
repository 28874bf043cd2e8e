import type { ThemeConfig } from 'antd';

/** The console's two colour modes. */
export type ColorMode = 'light' | 'dark';

/**
 * The console's design tokens, in one place: colours per mode, the type scale, spacing and radius.
 * antd's theme (below) takes its seed tokens from here, and the console's own stylesheets read the
 * same values as CSS custom properties (`var(--ivory-…)`, written by `cssVariables`), so antd's
 * components and the console's own pieces agree in both modes.
 */
export const palette = {
  light: {
    primary: '#5d2ca8',
    link: '#5d2ca8',
    bgLayout: '#f6f5f8',
    bg: '#ffffff',
    bgRaised: '#ffffff',
    bgSubtle: '#f7f6f9',
    hover: '#f1eef6',
    selected: '#ece4f8',
    text: 'rgba(0, 0, 0, 0.88)',
    textSecondary: 'rgba(0, 0, 0, 0.66)',
    textDisabled: 'rgba(0, 0, 0, 0.56)',
    onPrimary: '#ffffff',
    border: '#d0ccd8',
    borderSecondary: '#ebe8f0',
    focus: '#5d2ca8',
    success: '#1a7f37',
    error: '#c4262e',
    warning: '#8a5a00',
    running: '#0b63c5',
    idle: '#5f6670',
    successBg: '#effaf1',
    errorBg: '#fff1f0',
    infoBg: '#f1ebfb',
    headerBg: '#1f1633',
    headerText: '#f4f1fa',
    codeBg: '#f6f8fa',
    addedBg: '#e6ffec',
    removedBg: '#ffebe9',
  },
  dark: {
    primary: '#b497ea',
    link: '#c3abf0',
    bgLayout: '#121016',
    bg: '#1b1821',
    bgRaised: '#24202c',
    bgSubtle: '#201c27',
    hover: '#2b2635',
    selected: '#352a4c',
    text: 'rgba(255, 255, 255, 0.9)',
    textSecondary: 'rgba(255, 255, 255, 0.7)',
    textDisabled: 'rgba(255, 255, 255, 0.52)',
    onPrimary: '#140f1c',
    border: '#4a4456',
    borderSecondary: '#332e3c',
    focus: '#c3abf0',
    success: '#5fcf7c',
    error: '#ff8a8a',
    warning: '#e7b75a',
    running: '#74b3ff',
    idle: '#a3a9b3',
    successBg: '#14281b',
    errorBg: '#3a1719',
    infoBg: '#2a2140',
    headerBg: '#0c0a10',
    headerText: '#f4f1fa',
    codeBg: '#15131a',
    addedBg: '#12361f',
    removedBg: '#41191c',
  },
} as const satisfies Record<ColorMode, Record<string, string>>;

export type PaletteColor = keyof (typeof palette)['light'];

/** Type scale, spacing and radius: the same in both modes. */
export const scale = {
  fontSize: 14,
  fontSizeSM: 12,
  fontSizeLG: 16,
  fontSizeHeading1: 28,
  fontSizeHeading2: 22,
  fontSizeHeading3: 18,
  fontSizeHeading4: 16,
  borderRadius: 6,
  spacing: 8,
  headerHeight: 48,
} as const;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A colour as the console's stylesheets read it: `color('border')` → `var(--ivory-border)`. */
export const color = (name: PaletteColor): string => `var(--ivory-${kebab(name)})`;

/** The CSS custom properties of a mode, as one declaration block's body. */
export function cssVariables(mode: ColorMode): string {
  const colors = Object.entries(palette[mode]).map(
    ([name, value]) => `--ivory-${kebab(name)}: ${value};`,
  );
  return [
    ...colors,
    `--ivory-radius: ${scale.borderRadius}px;`,
    `--ivory-space: ${scale.spacing}px;`,
    `--ivory-header-height: ${scale.headerHeight}px;`,
    `color-scheme: ${mode};`,
  ].join('\n');
}

export function antdTokens(mode: ColorMode): ThemeConfig['token'] {
  const p = palette[mode];
  return {
    colorPrimary: p.primary,
    colorInfo: p.primary,
    colorLink: p.link,
    colorSuccess: p.success,
    colorError: p.error,
    colorWarning: p.warning,
    colorBgLayout: p.bgLayout,
    colorBgContainer: p.bg,
    colorBgElevated: p.bgRaised,
    colorText: p.text,
    colorTextSecondary: p.textSecondary,
    // antd's default description/placeholder greys (45 % and 25 %) fail WCAG AA contrast.
    colorTextTertiary: p.textSecondary,
    colorTextDescription: p.textSecondary,
    colorTextPlaceholder: p.textSecondary,
    colorTextQuaternary: p.textDisabled,
    colorTextDisabled: p.textDisabled,
    // Text on primary buttons: white on the light theme's deep purple, dark on the dark one's.
    colorTextLightSolid: p.onPrimary,
    colorSuccessBg: p.successBg,
    colorErrorBg: p.errorBg,
    colorInfoBg: p.infoBg,
    colorBorder: p.border,
    colorBorderSecondary: p.borderSecondary,
    fontSize: scale.fontSize,
    fontSizeSM: scale.fontSizeSM,
    fontSizeLG: scale.fontSizeLG,
    fontSizeHeading1: scale.fontSizeHeading1,
    fontSizeHeading2: scale.fontSizeHeading2,
    fontSizeHeading3: scale.fontSizeHeading3,
    fontSizeHeading4: scale.fontSizeHeading4,
    borderRadius: scale.borderRadius,
    controlOutline: p.focus,
  };
}

/**
 * The console's antd theme in light mode. The build renders antd's styles with it ahead of time
 * (`vite-plugins/antd-static-style-plugin.ts`); a theme that differed at run time would make antd
 * generate every style again in the browser (as it does in dark mode, whose styles antd writes
 * when the dark theme is first drawn).
 */
export const consoleTheme: ThemeConfig = { token: antdTokens('light') };
