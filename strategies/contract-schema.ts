import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ToolSpec } from '../harness/core/index.ts';

/**
 * The `research_result` record, exactly as the ledgerline seed prints it ("Specify the fields, and let
 * the schema do the work"). The return is a forced tool call against this schema; a real JSON Schema
 * validator (ajv) rejects a malformed or incomplete record and the rejection goes back to the child.
 */
export const researchResultTool = {
  name: 'research_result',
  input_schema: {
    type: 'object',
    required: ['findings', 'assumptions', 'unresolved', 'coverage', 'effort'],
    properties: {
      findings: {
        type: 'array',
        items: {
          type: 'object',
          required: ['claim', 'provenance', 'confidence'],
          properties: {
            claim: { type: 'string' },
            provenance: {
              type: 'array',
              items: { type: 'string' },
              description: 'file:line, table.column, or url + retrieved_at',
            },
            confidence: { enum: ['verified', 'inferred', 'reported'] },
          },
        },
      },
      assumptions: {
        type: 'array',
        items: { type: 'string' },
        description: 'what had to be taken as true to proceed',
      },
      unresolved: {
        type: 'array',
        items: { type: 'object', required: ['question', 'would_settle_it'] },
      },
      coverage: {
        type: 'object',
        properties: {
          searched: { type: 'array', items: { type: 'string' } },
          not_searched: { type: 'array', items: { type: 'string' } },
        },
      },
      effort: {
        type: 'object',
        properties: { tool_calls: { type: 'integer' }, budget_exhausted: { type: 'boolean' } },
      },
      transcript_ref: { type: 'string', description: 'handle for on-demand retrieval, not inlined' },
    },
  },
} as const;

/** The research_result fields a contract must fill. */
export const requiredFields = researchResultTool.input_schema.required;

/**
 * How a finding is known: verified (the source checked it), inferred, or reported (as someone asserted it).
 */
export type Confidence = 'verified' | 'inferred' | 'reported';

/** One claim of a research_result, with its provenance (file:line, table.column, url) and confidence. */
export interface Finding {
  claim: string;
  provenance: string[];
  confidence: Confidence;
}

/** The schema does not type these members, so a valid record may carry any JSON there. */
export interface Unresolved {
  question: unknown;
  would_settle_it: unknown;
}

/**
 * The research_result contract a child returns: findings, assumptions, unresolved questions, coverage
 * (searched, not searched), effort and a transcript reference.
 */
export interface ResearchResult {
  findings: Finding[];
  assumptions: string[];
  unresolved: Unresolved[];
  coverage: { searched?: string[]; not_searched?: string[] };
  effort: { tool_calls?: number; budget_exhausted?: boolean };
  transcript_ref?: string;
}

/** The tool the source model is forced to call. */
export const researchResultSpec: ToolSpec = {
  name: researchResultTool.name,
  description:
    'Return your research result as a record: findings (claim, provenance, confidence), assumptions, unresolved questions ' +
    'with what would settle them, coverage (searched / not searched) and effort (tool calls, budget exhausted).',
  inputSchema: researchResultTool.input_schema as unknown as Record<string, unknown>,
};

/** Compiled on first use: importing the strategies (every command does) costs no schema compile. */
let check: ValidateFunction | undefined;

/** Validation errors of a candidate record, as readable lines ([] when valid). */
export function validateResearchResult(value: unknown): string[] {
  check ??= new Ajv({ allErrors: true, strict: false }).compile(researchResultTool.input_schema);
  if (check(value)) return [];
  return (check.errors ?? []).map(describe);
}

function describe(e: ErrorObject): string {
  const at =
    e.instancePath === '' ? 'research_result' : `research_result${e.instancePath.replace(/\//g, '.')}`;
  const allowed =
    e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
  return `${at} ${e.message ?? 'is invalid'}${allowed}`;
}

/** Whether a value is a valid research_result (validateResearchResult reports no problem). */
export function isResearchResult(value: unknown): value is ResearchResult {
  return validateResearchResult(value).length === 0;
}
