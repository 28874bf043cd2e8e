import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleAntdCss, runtimeStyleExports, staticStyleElements } from './antd-static-style.ts';

const srcDir = path.join(import.meta.dirname, '..', 'src');

/** The values (not types) the app's source files import from 'antd'. */
function antdImports(): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(srcDir, { recursive: true, withFileTypes: true })) {
    if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    const source = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, list = ''] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
      for (const item of list.split(',').map((part) => part.trim())) {
        if (item && !item.startsWith('type ')) names.add(item.split(/\s+as\s+/)[0] ?? item);
      }
    }
  }
  return names;
}

describe('antd styles written at build time', () => {
  it('accounts for every antd component the app imports, once', () => {
    const imported = antdImports();
    expect(imported.size).toBeGreaterThan(10);
    for (const name of imported) {
      const placed = [name in staticStyleElements, name in runtimeStyleExports];
      expect(placed.filter(Boolean), `${name}: static or runtime, not both`).toHaveLength(1);
    }
    for (const name of [...Object.keys(staticStyleElements), ...Object.keys(runtimeStyleExports)])
      expect(imported, `${name} is listed but no longer imported`).toContain(name);
  });

  it("renders the listed components' CSS in the console theme, with antd's path record", () => {
    const css = consoleAntdCss();
    for (const selector of ['.ant-btn', '.ant-select', '.ant-breadcrumb', '.ant-tag-blue'])
      expect(css).toContain(selector);
    // The theme's primary colour, which also keys the styles antd looks up at run time.
    expect(css.toLowerCase()).toContain('#5d2ca8');
    expect(css).not.toContain('.ant-form');
    // The last rule lists every style path the sheet holds; antd reads it at run time.
    const record = /\.data-ant-cssinjs-cache-path\{content:"([^"]+)";\}\s*$/.exec(css)?.[1] ?? '';
    const paths = record.split(';').map((entry) => entry.split(':')[0] ?? '');
    for (const component of ['Button', 'Table', 'Typography', 'Tooltip'])
      expect(paths.some((entry) => entry.includes(`|${component}-${component}|`))).toBe(true);
  });
});
