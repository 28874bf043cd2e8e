import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { consoleAntdCss } from './antd-static-style.ts';

/**
 * Writes antd's component styles at build time instead of in the browser.
 *
 * antd generates each component's CSS the first time the component renders: it serialises the
 * style objects, hashes them and inserts a `<style>` element. On a cold load of a commit screen
 * that was about a third of the main thread's work before the first rows showed. The build now
 * renders the console's components once (antd-static-style.ts), emits their CSS as a hashed
 * stylesheet and links it first in index.html's head, before the app's own styles, where antd
 * would have put its `<style>` elements. At run time antd sees from the stylesheet's last rule
 * which styles the page already has and skips generating them; anything else (a component not
 * listed, a portal) it still generates as before.
 */
export function antdStaticStylePlugin(): Plugin {
  let base = '/';
  let fileName = '';
  return {
    name: 'ivory:antd-static-style',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    buildStart() {
      const css = consoleAntdCss();
      const hash = createHash('sha256').update(css).digest('base64url').slice(0, 8);
      fileName = `assets/antd-${hash}.css`;
      this.emitFile({ type: 'asset', fileName, source: css });
    },
    transformIndexHtml: {
      // Before Vite adds the entry's tags, whose stylesheets must come after this one.
      order: 'pre',
      handler: (html) =>
        html.replace(
          /^([ \t]*)<\/head>/m,
          (end, indent: string) =>
            `${indent}  <link rel="stylesheet" crossorigin href="${base}${fileName}" />\n${end}`,
        ),
    },
  };
}
