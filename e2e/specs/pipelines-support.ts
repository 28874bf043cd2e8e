import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Replaces the text of the CodeMirror editor inside `container`. */
export async function setEditorText(page: Page, containerTestId: string, text: string) {
  const content = page.getByTestId(containerTestId).locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

export function spec(name: string, cmd: string[], extra: Record<string, unknown> = {}) {
  return {
    pipeline: { name, project: { name: 'default' } },
    input: { pfs: { repo: 'samples', glob: '/' } },
    transform: { image: 'alpine:3', cmd },
    ...extra,
  };
}

export async function createPipelineViaApi(request: APIRequestContext, body: object) {
  const response = await request.post('/api/pps_v2.API/CreatePipelineV2', {
    data: { createPipelineRequestJson: JSON.stringify(body), update: false, dryRun: false },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

export function lineageNode(page: Page, pipeline: string) {
  return page.locator(`[data-node-id="pipeline:default/${pipeline}"]`);
}
