import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../core/index.ts';
import { claimMarks, isMark, type Mark } from '../compare/marks.ts';
import { cohenKappa } from './agreement.ts';

/**
 * A person's labels, saved beside the run in hand-labels.jsonl — never inside results.jsonl, which stays
 * the run's own record. Append-only: the latest record for an item wins, so a changed mind is one more
 * line and the history stays.
 */
export const HAND_LABELS_FILE = 'hand-labels.jsonl';

export interface HandMark {
  type: 'mark';
  at: string;
  cell_id: string;
  assertion_id: string;
  stage: string;
  mark: Mark;
}

export interface LabelReview {
  type: 'label';
  at: string;
  suite: string;
  case_id: string;
  assertion_id: string;
  decision: 'confirm' | 'reject';
}

export type HandLabel = HandMark | LabelReview;

export interface HandLabels {
  marks: Map<string, HandMark>;
  reviews: Map<string, LabelReview>;
}

export const markKey = (cellId: string, assertionId: string, stage: string) =>
  `${cellId}\u0000${assertionId}\u0000${stage}`;
export const reviewKey = (suite: string, caseId: string, assertionId: string) =>
  `${suite}\u0000${caseId}\u0000${assertionId}`;

/** Reads the run's hand labels; a line that is not a record is skipped (the file is a person's, not ours). */
export function readHandLabels(runDir: string): HandLabels {
  const out: HandLabels = { marks: new Map(), reviews: new Map() };
  const file = join(runDir, HAND_LABELS_FILE);
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let r: HandLabel;
    try {
      r = JSON.parse(line) as HandLabel;
    } catch {
      continue;
    }
    if (r?.type === 'mark' && isMark(r.mark) && typeof r.cell_id === 'string')
      out.marks.set(markKey(r.cell_id, r.assertion_id, r.stage), r);
    else if (r?.type === 'label' && (r.decision === 'confirm' || r.decision === 'reject'))
      out.reviews.set(reviewKey(r.suite, r.case_id, r.assertion_id), r);
  }
  return out;
}

export function appendHandLabel(runDir: string, label: HandLabel): void {
  appendFileSync(join(runDir, HAND_LABELS_FILE), `${JSON.stringify(label)}\n`);
}

export interface StageAgreement {
  stage: string;
  /** 'decision' (the mark the row counts) or another opinion the row records (`llm`, `cues`, …). */
  against: string;
  n: number;
  agree: number;
  kappa: number | null;
}

/**
 * Agreement between the person's marks and each classifier opinion the rows hold, per stage (Cohen's κ
 * over kept / overstated / absent). Items are the hand-marked (cell, claim, stage) triples.
 */
export function handAgreement(rows: readonly ResultRow[], labels: HandLabels): StageAgreement[] {
  const byCell = new Map(rows.map((r) => [r.cell_id, r]));
  const pairs = new Map<string, { stage: string; against: string; list: [string, string][] }>();
  const add = (stage: string, against: string, hand: string, machine: string) => {
    const k = `${stage}\u0000${against}`;
    let p = pairs.get(k);
    if (!p) pairs.set(k, (p = { stage, against, list: [] }));
    p.list.push([hand, machine]);
  };
  for (const m of labels.marks.values()) {
    const row = byCell.get(m.cell_id);
    const claim = row && claimMarks(row).find((c) => c.assertionId === m.assertion_id);
    if (!claim) continue;
    const decided = claim.stages[m.stage];
    if (decided) add(m.stage, 'decision', m.mark, decided);
    for (const [k, v] of Object.entries(claim.opinions)) {
      const [who, stage] = k.split('.');
      if (stage === m.stage && v) add(m.stage, who!, m.mark, v);
    }
  }
  return [...pairs.values()].map((p) => ({ stage: p.stage, against: p.against, ...cohenKappa(p.list) }));
}
