import type { Summary } from './summary/types.ts';

/** report.json: the summary itself, stable key order, no timestamps (a rebuilt report is byte-identical). */
export function renderJson(s: Summary): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}
