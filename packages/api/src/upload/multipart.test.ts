import { describe, expect, it } from 'vitest';
import { multipartBody } from './multipart.ts';

describe('multipartBody', () => {
  it('frames the fields, then the file part around the slice, with the boundary it announces', async () => {
    const file = new Blob([new Uint8Array([0, 255, 13, 10, 45, 45])]);
    const { body, contentType } = multipartBody(
      [
        ['uploadId', 'abc'],
        ['fileName', 'dir/漢字.bin'],
      ],
      'file',
      'x.bin',
      file,
    );
    const boundary = /^multipart\/form-data; boundary=(-{4}IvoryUpload[0-9a-f]{32})$/.exec(
      contentType,
    )?.[1];
    expect(boundary).toBeDefined();
    const bytes = Buffer.from(await body.arrayBuffer());
    const expected = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="uploadId"\r\n\r\nabc\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="fileName"\r\n\r\ndir/漢字.bin\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from([0, 255, 13, 10, 45, 45]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(bytes.equals(expected)).toBe(true);
  });

  it('escapes quotes and line breaks in names as HTML forms do, and draws a new boundary each time', async () => {
    const first = multipartBody([['a', 'one\ntwo']], 'file', 'say "hi"\r\n.txt', new Blob([]));
    const text = await first.body.text();
    expect(text).toContain('name="a"\r\n\r\none\r\ntwo\r\n');
    expect(text).toContain('filename="say %22hi%22%0D%0A.txt"');
    expect(multipartBody([], 'file', 'f', new Blob([])).contentType).not.toBe(first.contentType);
  });
});
