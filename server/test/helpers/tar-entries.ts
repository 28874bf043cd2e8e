import tar from 'tar-stream';

/** Folder entries of an archive read by tarEntries. */
export const TAR_DIR = '<dir>';

/** Every entry of a tar archive: name → text (TAR_DIR for folders). */
export async function tarEntries(archive: Buffer | ArrayBuffer): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        entries[header.name] =
          header.type === 'directory' ? TAR_DIR : Buffer.concat(chunks).toString('utf8');
        next();
      });
      stream.resume();
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(Buffer.isBuffer(archive) ? archive : Buffer.from(archive));
  await done;
  return entries;
}
