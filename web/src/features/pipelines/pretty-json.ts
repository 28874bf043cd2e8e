/** A JSON document indented for reading; the text as given when it does not parse. */
export function prettyJson(json: string | undefined | null): string {
  if (!json) return '';
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}
