import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelSpec } from '../config/types.ts';
import { readText } from '../core/text/read-text.ts';

/**
 * The model ids a resumed run calls. A resume plans from the run's saved config.json, but a model id
 * no journalled row was made with may be changed — the fix for a run stopped by an unknown model (exit
 * 4: no row of that model was journalled, the cells it failed are not). An id some row used stays
 * the run's: one run never mixes two models under one alias. Returns the ids taken, as
 * `models.<alias>.<provider> old → new`.
 */
export function resumeModels(
  dir: string,
  stored: Record<string, ModelSpec>,
  current: Record<string, ModelSpec>,
): { models: Record<string, ModelSpec>; taken: string[] } {
  const used = journalledModels(dir);
  const models: Record<string, ModelSpec> = structuredClone(stored);
  const taken: string[] = [];
  for (const [alias, spec] of Object.entries(stored)) {
    for (const [provider, id] of Object.entries(spec ?? {})) {
      const now = current[alias]?.[provider];
      if (typeof now !== 'string' || now === id || used === null || used.has(`${provider}:${id}`)) continue;
      models[alias]![provider] = now;
      taken.push(`models.${alias}.${provider} ${String(id)} → ${now}`);
    }
  }
  return { models, taken };
}

/** `provider:model` of every role of every journalled row; null when the journal cannot be read (then nothing changes). */
function journalledModels(dir: string): Set<string> | null {
  const file = join(dir, 'results.jsonl');
  if (!existsSync(file)) return new Set();
  try {
    const out = new Set<string>();
    for (const line of readText(file).split('\n')) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as Record<string, unknown>;
      for (const k of ['source_model', 'receiver_model', 'judge_model'])
        if (typeof r[k] === 'string') out.add(r[k]);
    }
    return out;
  } catch {
    return null;
  }
}
