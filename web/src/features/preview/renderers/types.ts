/** What every renderer gets: the file's /files URL and facts about it. */
export interface RendererProps {
  url: string;
  downloadUrl: string;
  name: string;
  sizeBytes: number;
  /** The registry's language for the file (code and view source). */
  language: string;
}
