import { fileURLToPath } from 'node:url';
import type { Case, Suite, Transcript } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { renderTranscript } from '../../strategies/render.ts';

export const casesDir = fileURLToPath(new URL('../../cases/', import.meta.url));

let loaded: Promise<Suite[]> | undefined;

/** Every shipped suite, loaded once per test file (generators run, every case validated). */
export function shippedSuites(): Promise<Suite[]> {
  loaded ??= loadSuites(casesDir, 'all');
  return loaded;
}

export async function suite(id: string): Promise<Suite> {
  const s = (await shippedSuites()).find((x) => x.id === id);
  if (!s) throw new Error(`suite ${id} not shipped`);
  return s;
}

export const isReal = (c: Case) => (c.tags ?? []).includes('real');

export function sourcesOf(c: Case): readonly Transcript[] {
  return c.sources ?? [c.source];
}

/** Every text a receiver could be shown for the case: the source(s) and the receiver's own history. */
export function renderedTexts(c: Case): string[] {
  return [...sourcesOf(c), ...(c.receiverHistory ? [c.receiverHistory] : [])].map((t) => renderTranscript(t));
}
