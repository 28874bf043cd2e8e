/**
 * Resource label constants of the benchmarking shell (product spec section 3). They are the keys
 * of platform metadata maps (EditMetadata) and of pipeline spec labels; see README.md for which
 * resource carries which label.
 */
export const LABELS = {
  pdkId: 'pdk-id',
  case: 'case',
  flow: 'flow',
  stage: 'stage',
  author: 'author',
  description: 'description',
  rtl: 'rtl',
  process: 'process',
  cpu: 'cpu',
  soc: 'soc',
  caseTemplate: 'case-template',
  kits: 'kits',
  caseset: 'caseset',
  system: 'system',
  pachctl: 'pachctl',
} as const;

export type LabelKey = (typeof LABELS)[keyof typeof LABELS];

/** Every resource label, in the spec's order. */
export const ALL_LABELS: readonly LabelKey[] = Object.values(LABELS);

/** The labels of a case's run configuration, in display order (`case` itself names it). */
export const CASE_CONFIG_LABELS = [
  LABELS.caseTemplate,
  LABELS.caseset,
  LABELS.kits,
  LABELS.pdkId,
  LABELS.process,
  LABELS.cpu,
  LABELS.soc,
  LABELS.system,
  LABELS.rtl,
  LABELS.flow,
  LABELS.author,
  LABELS.description,
] as const satisfies readonly LabelKey[];

/** Project `eda` metadata keys holding the setup screen's lists (comma-separated values). */
export const SETUP_LIST_LABELS = [LABELS.kits, LABELS.pdkId] as const satisfies readonly LabelKey[];

/** 'a, b,,c ' → ['a', 'b', 'c'] */
export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
