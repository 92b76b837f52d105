import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const harnessVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * The package root (where package.json, cases/ and the shipped transcripts are). This file and the
 * bundle (dist/) are both one level below it.
 */
export const packageRoot: string = fileURLToPath(new URL('..', import.meta.url));
