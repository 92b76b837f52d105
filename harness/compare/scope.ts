import type { ResultRow } from '../core/index.ts';
import { InputError } from '../core/errors.ts';
import type { LoadedRun } from './load-run.ts';
import type { CompareScope, RunSide } from './types.ts';

/** The header of one run: its models, harness versions, seed, size and cost, from its rows and config. */
export function sideOf(run: LoadedRun): RunSide {
  const distinct = (f: (r: ResultRow) => unknown) =>
    [...new Set(run.rows.map(f).filter((x): x is string => typeof x === 'string' && x !== ''))].sort();
  const cfg = run.config ?? {};
  const seed = run.rows[0]?.seed ?? cfg.seed;
  return {
    id: run.id,
    dir: run.dir,
    createdAt: typeof cfg.createdAt === 'string' ? cfg.createdAt : null,
    seed: typeof seed === 'number' ? seed : null,
    mode: run.rows.length ? distinct((r) => r.source_mode ?? 'recorded').join(', ') : null,
    models: {
      source: distinct((r) => r.source_model),
      receiver: distinct((r) => r.receiver_model),
      judge: distinct((r) => r.judge_model),
    },
    harness: distinct((r) => r.harness_version),
    cells: run.rows.length,
    errors: run.rows.filter((r) => r.status === 'error').length,
    costUsd: run.rows.reduce((s, r) => s + (r.cost_usd ?? 0) + (r.judge_cost_usd ?? 0), 0),
    inProgress: run.inProgress,
  };
}

/** An arm is the same arm in both runs only when its strategy and parameters are the same. */
const armDefinition = (r: ResultRow) => `${r.strategy} ${JSON.stringify(r.params ?? {})}`;

/**
 * Which cells pair (same suite/case/arm/rep, the arm defined the same way in both runs) and every
 * difference between the two experiments, as sentences. Refuses two runs with no cell in common.
 */
export function scopeOf(a: LoadedRun, b: LoadedRun): { scope: CompareScope; paired: Set<string> } {
  const notes: string[] = [];
  const suitesA = new Set(a.rows.map((r) => r.suite));
  const suitesB = new Set(b.rows.map((r) => r.suite));
  for (const s of suitesA) if (!suitesB.has(s)) notes.push(`suite ${s} is only in A (${a.id}); left out`);
  for (const s of suitesB) if (!suitesA.has(s)) notes.push(`suite ${s} is only in B (${b.id}); left out`);
  const excluded = new Set<string>();
  const defsA = definitions(a.rows);
  const defsB = definitions(b.rows);
  for (const [key, def] of defsA) {
    const other = defsB.get(key);
    const [suite, arm] = key.split('\u0000') as [string, string];
    if (!suitesB.has(suite)) continue;
    if (other === undefined) notes.push(`arm ${arm} of ${suite} is only in A; left out`);
    else if (other !== def) {
      excluded.add(key);
      notes.push(
        `arm ${arm} of ${suite} is not the same arm in both runs (A: ${def}; B: ${other}); left out`,
      );
    }
  }
  for (const key of defsB.keys()) {
    const [suite, arm] = key.split('\u0000') as [string, string];
    if (suitesA.has(suite) && !defsA.has(key)) notes.push(`arm ${arm} of ${suite} is only in B; left out`);
  }
  const idsB = new Set(b.rows.map((r) => r.cell_id));
  const idsA = new Set(a.rows.map((r) => r.cell_id));
  const paired = new Set<string>();
  for (const r of a.rows)
    if (idsB.has(r.cell_id) && !excluded.has(`${r.suite}\u0000${r.arm}`)) paired.add(r.cell_id);
  const onlyA = a.rows.filter((r) => !paired.has(r.cell_id)).length;
  const onlyB = b.rows.filter((r) => !paired.has(r.cell_id)).length;
  notes.push(...caseGaps(a, b, idsB, defsB, 'A'), ...caseGaps(b, a, idsA, defsA, 'B'));
  if (paired.size === 0)
    throw new InputError(
      'invalid',
      `${a.dir} and ${b.dir}: no cell in common (same suite, case, arm and rep with the arm defined alike) — these are runs of different experiments; nothing to compare`,
    );
  const sameExperiment = notes.length === 0;
  if (!sameExperiment)
    notes.unshift(
      `these runs are not the same experiment: compared only on what they share (${paired.size} cells; ${onlyA} of A's ${a.rows.length} and ${onlyB} of B's ${b.rows.length} cells left out)`,
    );
  return { scope: { sameExperiment, notes, pairedCells: paired.size, onlyA, onlyB }, paired };
}

function definitions(rows: readonly ResultRow[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of rows) m.set(`${r.suite}\u0000${r.arm}`, armDefinition(r));
  return m;
}

/** Differences the reader should know about even in the same experiment: seeds, models, versions, mode. */
export function contextNotes(a: RunSide, b: RunSide): string[] {
  const out: string[] = [];
  const differ = (what: string, x: unknown, y: unknown) => {
    const sx = Array.isArray(x) ? x.join(', ') : String(x ?? '–');
    const sy = Array.isArray(y) ? y.join(', ') : String(y ?? '–');
    if (sx !== sy) out.push(`${what} differ: A ${sx} · B ${sy}`);
  };
  differ('seeds', a.seed, b.seed);
  differ('source models', a.models.source, b.models.source);
  differ('receiver models', a.models.receiver, b.models.receiver);
  differ('judge models', a.models.judge, b.models.judge);
  differ('harness versions', a.harness, b.harness);
  differ('source modes', a.mode, b.mode);
  return out;
}

/** Cases (or reps) of a shared arm that ran in one run only, named (up to five) per run. */
function caseGaps(
  run: LoadedRun,
  other: LoadedRun,
  otherIds: Set<string>,
  otherDefs: Map<string, string>,
  label: string,
): string[] {
  const missing = run.rows.filter(
    (r) => !otherIds.has(r.cell_id) && otherDefs.has(`${r.suite}\u0000${r.arm}`),
  );
  if (missing.length === 0) return [];
  const cases = [...new Set(missing.map((r) => `${r.suite}/${r.case_id}`))];
  const named = cases.slice(0, 5).join(', ') + (cases.length > 5 ? ` and ${cases.length - 5} more` : '');
  return [
    `${missing.length} cell${missing.length === 1 ? '' : 's'} of shared arms ran only in ${label} (${run.id}), not in ${other.id} — case${cases.length === 1 ? '' : 's'} ${named}; left out`,
  ];
}
