import { createUploadItem, type UploadFile } from '@ivory/api';
import { describe, expect, it } from 'vitest';
import { doubledFolder, landingPath, placedItems, placementWarnings } from './placement.ts';

const item = (relativePath: string) =>
  createUploadItem(
    new File(['x'], relativePath.split('/').pop() ?? 'f') as UploadFile,
    relativePath,
  );

const design = ['rtl/counter4.v', 'rtl/tb/counter4_tb.v', 'rtl/user_plugin/plugin.json'].map(item);

describe('where picked files land', () => {
  it('does not double a picked folder named like the File Path’s last segment', () => {
    expect(doubledFolder('/rtl', design)).toBe('rtl');
    expect(design.map((i) => landingPath('/rtl', i, 'rtl'))).toEqual([
      '/rtl/counter4.v',
      '/rtl/tb/counter4_tb.v',
      '/rtl/user_plugin/plugin.json',
    ]);
    expect(placedItems('/rtl', design).map((i) => i.dirPath)).toEqual(['', 'tb', 'user_plugin']);
    // The same folder under "/" lands where the flow reads it too.
    expect(doubledFolder('/', design)).toBe('');
    expect(design.map((i) => landingPath('/', i))).toEqual([
      '/rtl/counter4.v',
      '/rtl/tb/counter4_tb.v',
      '/rtl/user_plugin/plugin.json',
    ]);
  });

  it('keeps the folder when the picks do not share it, or it differs from the File Path', () => {
    expect(doubledFolder('/rtl', [item('rtl/a.v'), item('b.v')])).toBe('');
    expect(doubledFolder('/rtl', [item('src/a.v')])).toBe('');
    expect(landingPath('/rtl', item('src/a.v'))).toBe('/rtl/src/a.v');
  });

  it('warns when the plugin, a testbench or the Verilog will not be where the flow reads them', () => {
    expect(placementWarnings('/rtl', design)).toEqual([]);
    const elsewhere = placementWarnings('/designs', design);
    expect(elsewhere.map((w) => w.files.map((f) => f.landing))).toEqual([
      ['/designs/rtl/user_plugin/plugin.json'],
      ['/designs/rtl/tb/counter4_tb.v'],
      ['/designs/rtl/counter4.v'],
    ]);
    expect(elsewhere[0]?.message).toContain('/rtl/user_plugin/plugin.json');
    // A folder "src" under /rtl: sources are fine, its plugin is not.
    const nested = placementWarnings('/rtl', [
      item('src/a.v'),
      item('src/user_plugin/plugin.json'),
    ]);
    expect(nested.map((w) => w.files.map((f) => f.relativePath))).toEqual([
      ['src/user_plugin/plugin.json'],
    ]);
  });
});
