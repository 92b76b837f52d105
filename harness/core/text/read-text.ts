import { readFileSync } from 'node:fs';

/**
 * A text file a person may have saved, as UTF-8 without a leading byte-order mark: Windows editors
 * (Notepad, PowerShell's `Out-File -Encoding utf8`) write one, and JSON.parse rejects it.
 */
export function readText(file: string): string {
  return stripBom(readFileSync(file, 'utf8'));
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
