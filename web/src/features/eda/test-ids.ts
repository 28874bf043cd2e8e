/** Test ids of the benchmarking shell's flow screen (read by e2e/specs/eda-flows.spec.ts). */
export const edaTestIds = {
  flowGraph: 'eda-flow-graph',
  flowStages: 'eda-flow-stages',
  flowStage: 'eda-flow-stage',
  flowRun: 'eda-flow-run',
  caseRun: 'eda-case-run',
} as const;
