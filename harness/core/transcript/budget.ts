import type { ToolResult, TrailItem, Transcript } from '../types/transcript.ts';
import { allTrailItems } from './view.ts';

/**
 * A live source's call past its tool-call budget is not run (harness/live/loop.ts): it gets this error
 * result instead. Whoever counts what a source did — the contract's tool-call guard, its evidence —
 * counts only the calls that ran (issue 29 item 8).
 */
export function budgetSpentMessage(budget: number): string {
  return `Error: the tool-call budget of ${budget} calls is exhausted; this call was not run. Write your final report now from what you have.`;
}

const refused = /^Error: the tool-call budget of \d+ calls is exhausted; this call was not run\./;

/** True for the result of a call refused past the budget (never run). */
export function isRefusedResult(r: Pick<ToolResult, 'content' | 'isError'> | undefined): boolean {
  return r?.isError === true && refused.test(r.content);
}

/** The transcript's tool calls that ran, with their results: every call but those refused past the budget. */
export function ranTrailItems(t: Transcript): TrailItem[] {
  return allTrailItems(t).filter((i) => !isRefusedResult(i.result));
}
