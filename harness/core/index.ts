/**
 * The domain model of handoff-eval (DESIGN §2). Every other module imports its types from here
 * (split by concept under types/); the rest of core — errors, tokens and the tokenizer, text and
 * cue lists, transcript views — is exported here too. Core imports nothing outside harness/core/.
 *
 * Vocabulary: a *source* agent did some work (a research child, a cheap primary, a parent mid-turn);
 * a *receiver* agent must act on it. A *strategy* decides what the receiver sees of the source's work
 * (the *handoff*). A *cell* is one (suite, case, arm, rep) and produces one *result row*.
 */

export * from './types/transcript.ts';
export * from './types/case.ts';
export * from './types/handoff.ts';
export * from './types/model-call.ts';
export * from './types/result.ts';
export * from './types/judging.ts';
export * from './types/reporting.ts';
export * from './atomic-write.ts';
export * from './errors.ts';
export * from './redact.ts';
export * from './text/cues.ts';
export * from './text/fence.ts';
export * from './text/read-text.ts';
export * from './text/signals.ts';
export * from './tokenizer/ascii-split.ts';
export * from './tokenizer/o200k.ts';
export * from './tokenizer/rank-table.ts';
export * from './tokens.ts';
export * from './transcript/session-shape.ts';
export * from './transcript/view.ts';
export * from './transcript/chat.ts';
export * from './transcript/budget.ts';
