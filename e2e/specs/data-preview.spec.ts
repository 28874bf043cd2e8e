import { expect, test, type Page } from '@playwright/test';
import { renderPng } from '../../server/src/seed/png.ts';
import { commitFiles, createRepo, gzip, tinyPdf, tinyWav } from '../support/data-api.ts';
import { testIds } from '../../web/src/test-ids.ts';

// One repo holding a file of every preview kind plus hostile files; each is previewed in the
// console and its rendered content checked.
const REPO = 'kinds';
let commitId = '';

const files: Record<string, string | Uint8Array> = {
  '/README.md': '# Preview heading\n\nSome *markdown* text.\n',
  '/table.csv': 'name,score\nalpha,1\nbeta,2\ngamma,3\n',
  '/table.tsv': 'name\tscore\ndelta\t4\n',
  '/wide.csv':
    'sepal_length,sepal_width,petal_length,petal_width,species\n5.1,3.5,1.4,0.2,setosa\n7.0,3.2,4.7,1.4,versicolor\n',
  '/logo.png': renderPng(40, 24, (x, y) => [x * 6, y * 10, 128]),
  '/paper.pdf': tinyPdf(),
  '/main.py': 'def greet(name):\n    return "hello " + name\n',
  '/notes.txt.gz': gzip('inner text of the gzip file\nsecond line\n'),
  '/tone.wav': tinyWav(1),
  '/clip.mp4': Buffer.alloc(2048, 1),
  '/page.html': '<html><body><h1>Plain page</h1></body></html>',
  '/feed.xml': '<?xml version="1.0"?><feed><title>Feed title</title></feed>',
  '/pic.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><rect width="30" height="20" fill="red"/></svg>',
  '/report.docx': Buffer.from('PK fake docx'),
  '/sheet.xlsx': Buffer.from('PK fake xlsx'),
  '/blob.bin': Buffer.from([0, 1, 2, 3]),
  '/evil.html':
    '<script>window.parent.__pwned=1;alert(1)</script><img src=x onerror="window.parent.__pwned=1;alert(2)"><p>evil page</p>',
  '/evil.md':
    '# Evil\n\n<script>window.__pwned=1</script>\n\n<img src=x onerror="window.__pwned=1;alert(3)">\n\n[click](javascript:window.__pwned=1)\n',
  '/evil.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1;alert(4)" width="10" height="10"><script>window.__pwned=1</script><rect width="10" height="10"/></svg>',
};

test.beforeAll(async () => {
  const baseUrl = String(test.info().project.use.baseURL);
  await createRepo(baseUrl, REPO, 'one file of every kind');
  commitId = await commitFiles(baseUrl, REPO, files, { description: 'every kind' });
});

async function openPreview(page: Page, name: string) {
  await page.goto(`/project/default/repos/${REPO}/commit/${commitId}/${name}`);
  const preview = page.getByTestId(testIds.filePreview);
  await expect(preview).toBeVisible();
  return preview;
}

test('markdown renders a heading, and view source shows the text', async ({ page }) => {
  const preview = await openPreview(page, 'README.md');
  await expect(
    preview.getByTestId(testIds.markdownPreview).getByRole('heading', { name: 'Preview heading' }),
  ).toBeVisible();
  await preview.getByTestId(testIds.viewSourceToggle).getByText('Source').click();
  await expect(preview.getByTestId(testIds.sourceView)).toContainText('# Preview heading');
});

test('csv and tsv show cells in a table', async ({ page }) => {
  let preview = await openPreview(page, 'table.csv');
  const csv = preview.getByTestId(testIds.csvPreview);
  await expect(csv.getByRole('columnheader', { name: 'score' })).toBeVisible();
  await expect(csv.getByRole('cell', { name: 'gamma' })).toBeVisible();
  preview = await openPreview(page, 'table.tsv');
  await expect(
    preview.getByTestId(testIds.csvPreview).getByRole('cell', { name: 'delta' }),
  ).toBeVisible();
});

test('a csv wider than its panel keeps every column, scrolling sideways inside the panel', async ({
  page,
}) => {
  const preview = await openPreview(page, 'wide.csv');
  const table = preview.getByTestId(testIds.csvPreview).getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'sepal_length' })).toBeVisible();
  // The table stays inside the preview panel and the window; the last column is reached by
  // scrolling the table (keyboard: it is focusable), not lost off the panel's edge.
  const panel = await preview.boundingBox();
  const box = await table.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  await table.focus();
  await table.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(table.getByRole('columnheader', { name: 'species' })).toBeInViewport();
  await expect(table.getByRole('cell', { name: 'versicolor' })).toBeInViewport();
});

test('an image loads with its natural width', async ({ page }) => {
  const preview = await openPreview(page, 'logo.png');
  const image = preview.getByTestId(testIds.imagePreview);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
});

test('svg shows as an image, with view source', async ({ page }) => {
  const preview = await openPreview(page, 'pic.svg');
  const image = preview.getByTestId(testIds.imagePreview);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(30);
  await preview.getByTestId(testIds.viewSourceToggle).getByText('Source').click();
  await expect(preview.getByTestId(testIds.sourceView)).toContainText('<rect');
});

test('a PDF page is drawn to a canvas', async ({ page }) => {
  const preview = await openPreview(page, 'paper.pdf');
  const canvas = preview.locator(`canvas[data-testid="${testIds.pdfPage}"][data-rendered="true"]`);
  await expect(canvas).toHaveCount(1, { timeout: 20_000 });
  const painted = await canvas.evaluate((node: HTMLCanvasElement) => {
    const data = node.getContext('2d')?.getImageData(0, 0, node.width, node.height).data ?? [];
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4)
      if ((data[i + 2] ?? 0) > 150 && (data[i] ?? 0) < 100) coloured++;
    return coloured;
  });
  expect(painted).toBeGreaterThan(100);
});

test('code is highlighted by its language', async ({ page }) => {
  const preview = await openPreview(page, 'main.py');
  const source = preview.getByTestId(testIds.sourceView);
  await expect(source).toContainText('def greet(name):');
  await expect(source).toHaveAttribute('data-language', /Python|main\.py/);
  // Highlighted tokens are spans with generated classes inside the lines.
  await expect.poll(() => source.locator('.cm-line span[class]').count()).toBeGreaterThan(2);
});

test('gz shows the inflated text', async ({ page }) => {
  const preview = await openPreview(page, 'notes.txt.gz');
  await expect(preview.getByTestId(testIds.gzPreview)).toContainText('inner text of the gzip file');
});

test('audio plays from the /files URL with a duration', async ({ page }) => {
  const preview = await openPreview(page, 'tone.wav');
  const audio = preview.getByTestId(testIds.audioPreview);
  await expect
    .poll(() => audio.evaluate((node: HTMLAudioElement) => node.duration), { timeout: 15_000 })
    .toBeCloseTo(1, 1);
});

test('video loads from the /files URL with a ranged request', async ({ page }) => {
  const ranged = page.waitForRequest(
    (request) => request.url().includes('/clip.mp4') && (request.headers()['range'] ?? '') !== '',
  );
  const preview = await openPreview(page, 'clip.mp4');
  const video = preview.getByTestId(testIds.videoPreview);
  await expect(video).toHaveAttribute(
    'src',
    new RegExp(`/files/default/${REPO}/${commitId}/clip.mp4$`),
  );
  // Chromium asks for the media with a Range header (this build may lack the codec to play it).
  expect((await ranged).headers()['range']).toMatch(/^bytes=/);
});

test('html shows in a sandboxed iframe; xml in a sandboxed frame from /files', async ({ page }) => {
  let preview = await openPreview(page, 'page.html');
  const frame = preview.getByTestId(testIds.webPreview);
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(
    page
      .frameLocator(`[data-testid="${testIds.webPreview}"]`)
      .getByRole('heading', { name: 'Plain page' }),
  ).toBeVisible();
  preview = await openPreview(page, 'feed.xml');
  await expect(preview.getByTestId(testIds.iframePreview)).toHaveAttribute('sandbox', '');
  await preview.getByTestId(testIds.viewSourceToggle).getByText('Source').click();
  await expect(preview.getByTestId(testIds.sourceView)).toContainText('Feed title');
});

test('documents show facts and a download; xlsx and unknown kinds offer the download', async ({
  page,
}) => {
  let preview = await openPreview(page, 'report.docx');
  await expect(preview.getByTestId(testIds.docPreview)).toContainText('report.docx');
  preview = await openPreview(page, 'sheet.xlsx');
  await expect(preview.getByTestId(testIds.previewUnavailable)).toBeVisible();
  await expect(preview.getByTestId(testIds.fileDownload)).toHaveAttribute(
    'href',
    /sheet\.xlsx\?download=1$/,
  );
  preview = await openPreview(page, 'blob.bin');
  await expect(preview.getByTestId(testIds.previewUnavailable)).toBeVisible();
});

test.describe('hostile files', () => {
  test('cannot run script in the console origin when previewed', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

    let preview = await openPreview(page, 'evil.html');
    await expect(preview.getByTestId(testIds.webPreview)).toHaveAttribute('sandbox', '');
    await expect(
      page.frameLocator(`[data-testid="${testIds.webPreview}"]`).getByText('evil page'),
    ).toBeVisible();
    await preview.getByTestId(testIds.viewSourceToggle).getByText('Source').click();
    await expect(preview.getByTestId(testIds.sourceView)).toContainText('window.parent.__pwned');

    preview = await openPreview(page, 'evil.md');
    await expect(
      preview.getByTestId(testIds.markdownPreview).getByRole('heading', { name: 'Evil' }),
    ).toBeVisible();
    await expect(preview.locator('script, img[onerror]')).toHaveCount(0);
    const link = preview.getByRole('link', { name: 'click' });
    if (await link.count()) {
      expect(await link.getAttribute('href')).not.toMatch(/^javascript:/i);
    }

    preview = await openPreview(page, 'evil.svg');
    const image = preview.getByTestId(testIds.imagePreview);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);

    await page.waitForTimeout(500);
    expect(await pwned()).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  test('opening a file URL directly is sandboxed by CSP and downloads', async ({
    page,
    request,
  }) => {
    for (const name of ['evil.html', 'evil.svg', 'evil.md']) {
      const response = await request.get(`/files/default/${REPO}/${commitId}/${name}`);
      expect(response.headers()['content-security-policy']).toBe('sandbox');
      expect(response.headers()['x-content-type-options']).toBe('nosniff');
    }
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/');
    // An active type opened as a page is an attachment: the browser saves it, never shows it.
    for (const spelling of ['/files', '/%66iles', '/pfs']) {
      const download = page.waitForEvent('download');
      await page
        .goto(`${spelling}/default/${REPO}/${commitId}/evil.html`)
        .catch((error: Error) => expect(error.message).toContain('Download is starting'));
      expect((await download).suggestedFilename()).toBe('evil.html');
    }
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

test('a text file beyond the inline limit shows its head and tail through range requests, with load more', async ({
  page,
}, testInfo) => {
  const baseUrl = String(testInfo.project.use.baseURL);
  // About 3.4 MiB of numbered lines: over the 2 MiB inline limit of text.
  const lines = Array.from({ length: 120_000 }, (_, i) => `line ${i + 1} ${'x'.repeat(20)}`);
  const big = await commitFiles(baseUrl, REPO, { '/big.log': lines.join('\n') + '\n' });
  const fileRequests: Array<string | null> = [];
  page.on('request', (request) => {
    // The file's bytes, not the console page of the same path.
    if (
      request.resourceType() !== 'document' &&
      new URL(request.url()).pathname.endsWith('/big.log')
    )
      fileRequests.push(request.headers()['range'] ?? null);
  });
  await page.goto(`/project/default/repos/${REPO}/commit/${big}/big.log`);
  const preview = page.getByTestId(testIds.largeTextPreview);
  await expect(preview).toBeVisible();
  await expect(page.getByTestId(testIds.previewTooLarge)).toHaveCount(0);
  const head = preview.getByTestId(testIds.largeTextHead);
  await expect(head).toContainText(`line 1 ${'x'.repeat(20)}`);
  await expect(preview.getByTestId(testIds.largeTextTail)).toContainText('line 120000 ');
  await expect(head).not.toContainText('line 3000 ');
  const gap = preview.getByTestId(testIds.largeTextGap);
  await expect(gap).toContainText('not shown');
  const gapBefore = await gap.textContent();

  await preview.getByTestId(testIds.largeTextMore).click();
  await expect(head).toContainText('line 3000 ');
  await expect(gap).not.toHaveText(gapBefore!);
  // Every read of the file asked for a range; none loaded it whole.
  expect(fileRequests.length).toBeGreaterThanOrEqual(3);
  for (const range of fileRequests) expect(range).toMatch(/^bytes=\d+-\d+$/);
});
