import type { NewFile, PfsStore } from '../platform/pfs/pfs-store.ts';
import type { RepoRow } from '../platform/pfs/rows.ts';
import type { Pps } from '../platform/pps/index.ts';
import type { BlobStore } from '../platform/storage/blob-store.ts';
import { renderPng } from './png.ts';

type DemoFiles = Record<string, string | Buffer>;

const gradient = (r: number, g: number, b: number) =>
  renderPng(48, 32, (x, y) => [(r + x * 4) % 256, (g + y * 6) % 256, (b + x * y) % 256]);

const readme = `# Samples

Small example data sets used to try the console:

- \`data/iris.csv\` — the classic flower measurements (a few rows)
- \`data/config.json\` — settings for a model run
`;

const irisV1 = `sepal_length,sepal_width,petal_length,petal_width,species
5.1,3.5,1.4,0.2,setosa
4.9,3.0,1.4,0.2,setosa
7.0,3.2,4.7,1.4,versicolor
`;

const irisV2 = `${irisV1}6.3,3.3,6.0,2.5,virginica
5.8,2.7,5.1,1.9,virginica
`;

/** Seeds a small demo project the first time the server starts with an empty database. */
/** The demo DAG: samples → row-counts (a datum per data file) → summary (one datum). */
export const demoPipelines = [
  {
    pipeline: { name: 'row-counts', project: { name: 'default' } },
    description: 'Counts the lines of each data file in samples',
    transform: {
      image: 'alpine:3.20',
      cmd: ['sh'],
      stdin: [
        'for f in /pfs/samples/data/*; do',
        '  name=$(basename "$f")',
        '  n=$(wc -l < "$f" | tr -d " ")',
        '  echo "$name has $n lines"',
        '  echo "$n" > /pfs/out/"$name".count',
        'done',
      ],
    },
    input: { pfs: { repo: 'samples', glob: '/data/*' } },
  },
  {
    pipeline: { name: 'summary', project: { name: 'default' } },
    description: 'Adds up the line counts',
    transform: {
      image: 'alpine:3.20',
      cmd: ['sh'],
      stdin: [
        'total=0',
        'for f in /pfs/row-counts/*.count; do total=$((total + $(cat "$f"))); done',
        'echo "$total" > /pfs/out/total-lines.txt',
        'echo "total lines: $total"',
      ],
    },
    input: { pfs: { repo: 'row-counts', glob: '/' } },
  },
];

export async function seedDemo(pfs: PfsStore, blobs: BlobStore, pps?: Pps): Promise<boolean> {
  if (pfs.listProjects().length > 0) return false;

  async function land(
    repo: RepoRow,
    branch: string,
    description: string,
    files: DemoFiles,
    deletions: string[] = [],
  ) {
    const stored: NewFile[] = [];
    for (const [path, content] of Object.entries(files)) {
      const blob = await blobs.writeBytes(
        typeof content === 'string' ? Buffer.from(content) : content,
      );
      stored.push({ path, hash: blob.hash, sizeBytes: blob.sizeBytes });
    }
    return pfs.landCommit(repo, branch, description, stored, deletions);
  }

  pfs.createProject('default', 'Demo project', false);

  const images = pfs.createRepo(
    { project: 'default', name: 'images', type: 'user' },
    'Photos and frames',
    false,
  );
  await land(images, 'master', 'Add the logo and January frames', {
    '/logo.png': gradient(200, 40, 90),
    '/raw/2024/01/frame-001.png': gradient(10, 120, 200),
    '/raw/2024/01/frame-002.png': gradient(60, 160, 30),
  });
  const imagesHead = await land(images, 'master', 'Add February frames', {
    '/raw/2024/02/frame-003.png': gradient(240, 200, 10),
  });
  pfs.createBranch(images, 'dev', imagesHead, []);
  await land(images, 'dev', 'Try a brighter logo', { '/logo.png': gradient(250, 250, 120) });

  const samples = pfs.createRepo(
    { project: 'default', name: 'samples', type: 'user' },
    'Example tables and notes',
    false,
  );
  await land(samples, 'master', 'Initial samples', {
    '/README.md': readme,
    '/data/iris.csv': irisV1,
    '/data/config.json': JSON.stringify({ model: 'tree', depth: 4, seed: 7 }, null, 2) + '\n',
    '/data/archive/2023/values.csv': 'id,value\n1,0.5\n2,0.75\n',
  });
  const samplesHead = await land(samples, 'master', 'Add virginica rows', {
    '/data/iris.csv': irisV2,
  });
  pfs.createBranch(samples, 'dev', samplesHead, []);
  await land(samples, 'master', 'Remove the 2023 archive', {}, ['/data/archive/2023/values.csv']);
  // Their first jobs run as soon as the pipeline runner starts.
  for (const spec of pps ? demoPipelines : [])
    await pps?.pipelines.create(spec, { update: false, reprocess: false, dryRun: false });
  return true;
}
