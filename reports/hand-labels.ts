import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../harness/core/index.ts';
import { claimMarks, isMark, type Mark } from './survival-marks.ts';
import { cohenKappa } from './stats/kappa.ts';

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

/** The hand labels of a run directory and their agreement with the classifier: what every report shows. */
export function handLabelAgreement(runDir: string, rows: readonly ResultRow[]): HandLabelSummary | null {
  const labels = readHandLabels(runDir);
  if (labels.marks.size === 0 && labels.reviews.size === 0) return null;
  const reviews = [...labels.reviews.values()];
  return {
    file: HAND_LABELS_FILE,
    marks: labels.marks.size,
    confirmed: reviews.filter((r) => r.decision === 'confirm').length,
    rejected: reviews.filter((r) => r.decision === 'reject').length,
    agreement: handAgreement(rows, labels),
  };
}

export interface HandLabelSummary {
  file: string;
  marks: number;
  confirmed: number;
  rejected: number;
  agreement: StageAgreement[];
}

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

/** The agreement table every format shows: one row per stage × opinion. */
export const agreementHeaders = ['stage', 'person vs', 'items', 'agree', "Cohen's κ"];

export function agreementRows(rows: readonly StageAgreement[]): string[][] {
  return rows.map((r) => [
    r.stage,
    r.against === 'decision' ? 'the classifier (the mark the run counts)' : r.against,
    String(r.n),
    `${r.agree}/${r.n}`,
    r.kappa === null ? '– (one category only)' : r.kappa.toFixed(2),
  ]);
}

/** One line under the heading: how many marks and reviews, and where they are kept. */
export function handLabelLine(h: HandLabelSummary): string {
  return `${h.marks} hand mark${h.marks === 1 ? '' : 's'}, ${h.confirmed} label${h.confirmed === 1 ? '' : 's'} confirmed and ${h.rejected} rejected by a person (${h.file} beside the run; results.jsonl is never written).`;
}
