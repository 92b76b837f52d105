import { ConfigError } from '../core/errors.ts';

/**
 * The live source loop's prompts (docs/live.md#the-source-prompts): `livePrompts` in eval.config.ts,
 * in a suite selection, or per arm of that suite (`livePrompts.arms.<arm>`); the nearest wins field
 * by field (arm > suite > config). Without any, the loop's built-in prompt is sent unchanged.
 */
export interface LivePrompts {
  /** Replaces the whole system prompt; `{budget}` is replaced by the tool-call budget. */
  system?: string;
  /**
   * The "end with what you could not determine" reminder: a sentence appended to the system prompt,
   * or `false` for none (the seed's situation: a child told nothing about caveats). @default the
   * built-in prompt's own ("… what you could not determine, and what you had to assume.")
   */
  reminder?: string | false;
}

export interface LivePromptsInput extends LivePrompts {
  /** Per arm of the suite (by arm name): over the suite's own. Only in a suite selection. */
  arms?: Record<string, LivePrompts>;
}

/** Checks a `livePrompts` value at `field` (arms only where `withArms`); returns it as given. */
export function checkLivePrompts(
  value: unknown,
  field: string,
  file: string,
  withArms: boolean,
): LivePromptsInput | undefined {
  if (value === undefined) return undefined;
  const fail = (f: string, detail: string, got: unknown): never => {
    throw new ConfigError(file, f, `${detail} (got ${JSON.stringify(got)})`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(field, 'must be an object: { system?, reminder?' + (withArms ? ', arms? }' : ' }'), value);
  const v = value as Record<string, unknown>;
  const known = withArms ? ['system', 'reminder', 'arms'] : ['system', 'reminder'];
  for (const key of Object.keys(v))
    if (!known.includes(key)) fail(`${field}.${key}`, `unknown field; valid: ${known.join(', ')}`, v[key]);
  if (v.system !== undefined && (typeof v.system !== 'string' || v.system.trim() === ''))
    fail(`${field}.system`, 'must be a non-empty string', v.system);
  if (
    v.reminder !== undefined &&
    v.reminder !== false &&
    (typeof v.reminder !== 'string' || !v.reminder.trim())
  )
    fail(`${field}.reminder`, 'must be a non-empty string, or false for no reminder', v.reminder);
  if (v.arms !== undefined) {
    if (typeof v.arms !== 'object' || v.arms === null || Array.isArray(v.arms))
      fail(`${field}.arms`, 'must be an object: arm name → { system?, reminder? }', v.arms);
    for (const [arm, p] of Object.entries(v.arms as object))
      checkLivePrompts(p, `${field}.arms.${arm}`, file, false);
  }
  return v as LivePromptsInput;
}

/** The prompts a live arm gets: the arm's entry over the suite's over the config's, field by field. */
export function livePromptsOf(
  arm: string,
  suite: LivePromptsInput | undefined,
  config: LivePrompts | undefined,
): LivePrompts | undefined {
  const layers = [config, suite, suite?.arms?.[arm]];
  const out: LivePrompts = {};
  for (const l of layers) {
    if (l?.system !== undefined) out.system = l.system;
    if (l?.reminder !== undefined) out.reminder = l.reminder;
  }
  return out.system === undefined && out.reminder === undefined ? undefined : out;
}
