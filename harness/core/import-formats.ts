/**
 * The transcript formats the importers read (harness/importers/), by name. Kept here, not in the
 * importers, so the config can name them without loading an importer (`sources.<name>.format`).
 */
export const importFormats = [
  'claude-code',
  'openai',
  'anthropic',
  'swe-agent',
  'openhands',
  'inspect',
  'codex',
  'responses',
  'gemini',
] as const;
/** One of the importers' format names. */
export type ImportFormat = (typeof importFormats)[number];
