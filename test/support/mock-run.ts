import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallRecord, Provider, ResultRow } from '../../harness/core/index.ts';
import type { ResolvedConfig, UserConfig } from '../../harness/config/types.ts';
import { createAnthropicProvider } from '../../harness/providers/anthropic.ts';
import { createOpenAIProvider } from '../../harness/providers/openai.ts';
import type { MockServer } from './mock-llm-server.ts';
import { repoRoot } from './cli.ts';

/** Helpers for runner tests against the loopback mock: env, configs, journals. */
export const fixtureCases = join(repoRoot, 'test/fixtures/cases');

/** Model aliases whose ids under each provider are cheap, current names (no SDK deprecation warnings). */
export const testModels: UserConfig['models'] = {
  large: { sim: 'sim-large', anthropic: 'claude-haiku-4-5', openai: 'gpt-4o-mini' },
  small: { sim: 'sim-small', anthropic: 'claude-haiku-4-5', openai: 'gpt-4o-mini' },
  judge: { sim: 'sim-judge', anthropic: 'claude-haiku-4-5', openai: 'gpt-4o-mini' },
};

/** The harness's own Anthropic or OpenAI provider (the real SDK client) pointed at the mock by mockEnv. */
export function loopbackProvider(
  mock: MockServer,
  name: 'anthropic' | 'openai',
  config: ResolvedConfig,
): Promise<Provider> {
  return (name === 'anthropic' ? createAnthropicProvider : createOpenAIProvider)(config, mockEnv(mock));
}

/** Keys and base URLs pointing both providers at the mock (the key values are fakes). */
export function mockEnv(mock: MockServer, key = 'sk-test-not-a-real-key-000'): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: key,
    ANTHROPIC_BASE_URL: mock.anthropicBaseURL,
    OPENAI_API_KEY: key,
    OPENAI_BASE_URL: mock.openaiBaseURL,
  };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `handoff-${prefix}-`));
}

export function readLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

export const rowsOf = (dir: string) => readLines<ResultRow>(join(dir, 'results.jsonl'));
export const callsOf = (dir: string) => readLines<CallRecord>(join(dir, 'calls.jsonl'));

/** The cell ids a mini-suite run plans (1 case × 3 arms × reps). */
export function miniCells(reps: number): string[] {
  const out: string[] = [];
  for (const arm of ['inline', 'full-transcript', 'brick'])
    for (let rep = 0; rep < reps; rep++) out.push(`mini/deprecation-1/${arm}/${rep}`);
  return out.sort();
}

/** Each id exactly once? Returns the ids that are missing or duplicated (empty when fine). */
export function exactlyOnce(ids: string[], expected: string[]): { missing: string[]; duplicated: string[] } {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return {
    missing: expected.filter((id) => !counts.has(id)),
    duplicated: [...counts].filter(([, n]) => n > 1).map(([id]) => id),
  };
}
