/** scripts/import-graph.mjs: the sources' import graph and its check against docs/architecture.md's layers. */
export type ImportKind = 'value' | 'type' | 'dynamic';
export interface ImportEdge {
  from: string;
  to: string;
  kind: ImportKind;
}
export interface GraphProblems {
  violations: (ImportEdge & { fromLayer: string; toLayer: string })[];
  unplaced: string[];
  cycles: string[][];
}
export const sourceRoots: string[];
export function specifiersOf(fileName: string, text: string): { specifier: string; kind: ImportKind }[];
export function collectEdges(root: string, roots?: string[]): ImportEdge[];
export function parseLayers(markdown: string): string[];
export function layerOf(file: string, layers: string[]): string | undefined;
export function cycles(edges: { from: string; to: string }[]): string[][];
export function checkGraph(edges: ImportEdge[], layers: string[]): GraphProblems;
export function formatProblems(problems: GraphProblems): string[];
