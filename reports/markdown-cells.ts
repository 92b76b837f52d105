import type { ArmSummary } from './summary/types.ts';

/** Text from rows (arm names, error codes) cannot break a table or inject markup. */
export function mdCell(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n/g, ' ');
}

export const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
export const align = (spec: string) => row(spec.split('').map((c) => (c === 'r' ? '---:' : '---')));
export const armLabel = (a: ArmSummary) => `${mdCell(a.arm)}${a.baseline ? ' (baseline)' : ''}`;
