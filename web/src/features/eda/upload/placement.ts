import { joinUploadPath, type UploadItem } from '@ivory/api';

/**
 * Where picked files land in the bolt, and whether the EDA flow will find them there. Beyond
 * the spec's `path/` + dirPath: a picked folder named like the File Path's last segment (the
 * folder `rtl/` picked with the default File Path `/rtl`) is not doubled — its files land at
 * `/rtl/…`, not `/rtl/rtl/…`.
 */

/** Where the EDA flow reads a bolt: its Verilog, its testbenches, its plugin description. */
export const FLOW_RTL_DIR = '/rtl';
export const FLOW_TESTBENCH_DIR = '/rtl/tb';
/** Where the trial service reads the flow's description (first found wins). */
export const PLUGIN_PATHS = ['/rtl/user_plugin/plugin.json', '/user_plugin/plugin.json'];

const segments = (path: string) => path.split('/').filter(Boolean);

/** The picked folder that the File Path already names ('' when none is doubled). */
export function doubledFolder(basePath: string, items: readonly UploadItem[]): string {
  const last = segments(basePath).at(-1) ?? '';
  if (!last || items.length === 0) return '';
  const firsts = new Set(
    items.map((item) => {
      const parts = segments(item.relativePath);
      return parts.length > 1 ? parts[0] : '';
    }),
  );
  return firsts.size === 1 && firsts.has(last) ? last : '';
}

/** The item's folder under the File Path, without a doubled picked folder. */
export function effectiveDirPath(item: UploadItem, doubled: string): string {
  if (!doubled) return item.dirPath;
  const parts = segments(item.relativePath).slice(1, -1);
  return parts.join('/');
}

/** The items as the engine sends them: their folders without a doubled picked folder. */
export function placedItems(basePath: string, items: readonly UploadItem[]): UploadItem[] {
  const doubled = doubledFolder(basePath, items);
  return items.map((item) => {
    const dirPath = effectiveDirPath(item, doubled);
    return dirPath === item.dirPath ? item : { ...item, dirPath };
  });
}

/** Where a picked file lands in the bolt: the File Path joined with its (placed) folder. */
export function landingPath(basePath: string, item: UploadItem, doubled = ''): string {
  const folder = joinUploadPath(basePath, effectiveDirPath(item, doubled));
  const name = item.relativePath.slice(item.relativePath.lastIndexOf('/') + 1);
  return folder === '/' ? `/${name}` : `${folder}/${name}`;
}

const isVerilog = (path: string) => /\.s?v$/.test(path);
const isTestbench = (relativePath: string) =>
  /(^|\/)tb\//.test(relativePath) || /_tb\.s?v$/.test(relativePath);
const isPlugin = (relativePath: string) => /(^|\/)plugin\.json$/.test(relativePath);

export interface PlacementWarning {
  /** What is misplaced (relative paths as picked) and where it would land. */
  files: Array<{ relativePath: string; landing: string }>;
  /** What the flow reads instead. */
  message: string;
}

/**
 * Files the flow will not find where they land: a plugin description not at
 * /rtl/user_plugin/plugin.json (or /user_plugin/plugin.json), testbenches outside /rtl/tb,
 * Verilog outside /rtl.
 */
export function placementWarnings(
  basePath: string,
  items: readonly UploadItem[],
): PlacementWarning[] {
  const doubled = doubledFolder(basePath, items);
  const landed = items.map((item) => ({
    relativePath: item.relativePath,
    landing: landingPath(basePath, item, doubled),
  }));
  const under = (path: string, dir: string) => path.startsWith(`${dir}/`);
  const warnings: PlacementWarning[] = [];
  const plugins = landed.filter(
    (file) => isPlugin(file.relativePath) && !PLUGIN_PATHS.includes(file.landing),
  );
  if (plugins.length > 0)
    warnings.push({
      files: plugins,
      message: `The flow reads its description at ${PLUGIN_PATHS[0]} (or ${PLUGIN_PATHS[1]}): put the user_plugin folder there.`,
    });
  const benches = landed.filter(
    (file) =>
      isVerilog(file.relativePath) &&
      isTestbench(file.relativePath) &&
      !under(file.landing, FLOW_TESTBENCH_DIR),
  );
  if (benches.length > 0)
    warnings.push({
      files: benches,
      message: `The flow runs testbenches from ${FLOW_TESTBENCH_DIR}/<design>_tb.v.`,
    });
  const sources = landed.filter(
    (file) =>
      isVerilog(file.relativePath) &&
      !isTestbench(file.relativePath) &&
      !under(file.landing, FLOW_RTL_DIR),
  );
  if (sources.length > 0)
    warnings.push({
      files: sources,
      message: `The flow reads Verilog under ${FLOW_RTL_DIR}.`,
    });
  return warnings;
}
