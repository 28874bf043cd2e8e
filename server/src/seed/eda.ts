import {
  EDA_BOLT,
  EDA_FLOW,
  EDA_PARAMS_REPO,
  EDA_PROJECT,
  edaCases,
  edaPipelineSpecs,
  edaRtlFiles,
} from '../eda/demo-flow.ts';
import type { NewFile, PfsStore } from '../platform/pfs/pfs-store.ts';
import type { Pps } from '../platform/pps/index.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import type { TrialService } from '../platform/trials/index.ts';

export const EDA_SEED_AUTHOR = 'ivory-seed';

/**
 * Seeds the EDA demo project on first start: the bolt with the demo's RTL, a case branch per
 * seeded case, the flow's pipelines and a trial per case. Only database and blob writes: the
 * trials' jobs run in the pipeline runner (which must have started: it creates their jobs).
 */
export async function seedEda(
  pfs: PfsStore,
  blobs: BlobStore,
  pps: Pps,
  trials: TrialService,
  options: { toolsPath?: string } = {},
): Promise<boolean> {
  if (pfs.findProject(EDA_PROJECT)) return false;
  const stored: NewFile[] = [];
  for (const [path, bytes] of Object.entries(edaRtlFiles())) {
    const blob = await blobs.writeBytes(bytes);
    stored.push({ path, hash: blob.hash, sizeBytes: blob.sizeBytes });
  }
  pfs.createProject(
    EDA_PROJECT,
    'Chip-design benchmarking: the EDA demo (small RTL synthesised with Yosys)',
    false,
  );
  const bolt = pfs.createRepo(
    { project: EDA_PROJECT, name: EDA_BOLT, type: 'user' },
    'The EDA demo: a parameterised ALU, a FIFO and a counter in Verilog, with testbenches',
    false,
  );
  const head = pfs.landCommit(
    bolt,
    'master',
    'The demo RTL: alu.v, fifo.v, counter.v, testbenches and the flow plugin',
    stored,
  );
  for (const c of edaCases) {
    pfs.createBranch(bolt, c.name, head, []);
    pfs.setBranchMetadata(pfs.getBranch(bolt, c.name), {
      case: c.name,
      flow: EDA_FLOW,
      rtl: c.rtl,
      design: c.parameters.design ?? '',
      description: c.description,
    });
  }
  pfs.createRepo(
    { project: EDA_PROJECT, name: EDA_PARAMS_REPO, type: 'user' },
    `Parameters of the trials of flow ${EDA_FLOW}`,
    false,
  );
  for (const spec of edaPipelineSpecs({ toolsPath: options.toolsPath }))
    await pps.pipelines.create(spec, { update: false, reprocess: false, dryRun: false });
  for (const c of edaCases)
    await trials.create({
      project: EDA_PROJECT,
      flow: EDA_FLOW,
      caseName: c.name,
      parameters: c.parameters,
      labels: { seed: 'true' },
      description: c.description,
      author: EDA_SEED_AUTHOR,
    });
  return true;
}
