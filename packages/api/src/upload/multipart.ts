/**
 * A chunk request's `multipart/form-data` body built as one Blob: the text parts around the file
 * slice, which stays a lazy reference (browsers read it from disk, Node from openAsBlob's file).
 * The same bytes a FormData would produce, without FormData's encoder: Node's fetch streams a
 * FormData through web streams that copy every piece (most of the Node client's time), and a
 * Blob body is sent as it is.
 */
export interface MultipartBody {
  body: Blob;
  contentType: string;
}

/** Line breaks become CRLF, as the HTML form encoding does for names and values. */
function normaliseLineBreaks(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

/** A name or file name inside a Content-Disposition quoted string (the HTML spec's escapes). */
function quoted(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

function randomBoundary(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `----IvoryUpload${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Text fields first, then the file part named `fileField` (filename `fileName`). The random
 * boundary cannot occur in the text fields by chance (128 bits); the file's bytes are not scanned
 * either, as with FormData.
 */
export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  fileField: string,
  fileName: string,
  file: Blob,
): MultipartBody {
  const boundary = randomBoundary();
  let head = '';
  for (const [name, value] of fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(normaliseLineBreaks(name))}"\r\n\r\n`;
    head += `${normaliseLineBreaks(value)}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(normaliseLineBreaks(fileField))}"; ` +
    `filename="${quoted(fileName)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: new Blob([head, file, `\r\n--${boundary}--\r\n`]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
