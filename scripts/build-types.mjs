#!/usr/bin/env node
// `npm pack` / `npm publish` (prepack): declaration files for the public API into dist/types/, so an
// installed handoff-eval is typed for any consumer (the sources import each other with .ts extensions,
// which a consumer's compiler would reject without allowImportingTsExtensions). Needs typescript (a
// devDependency: packing happens in a checkout, never in an installed copy).
import ts from 'typescript';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = join(root, 'dist', 'types');

export function buildTypes() {
  rmSync(outDir, { recursive: true, force: true });
  const program = ts.createProgram([join(root, 'harness', 'index.ts')], {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    strict: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    verbatimModuleSyntax: true,
    resolveJsonModule: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: root,
    outDir,
  });
  // Relative specifiers as a consumer's compiler resolves them in declaration files: `./x.js` → x.d.ts.
  const writeFile = (file, text, bom) =>
    ts.sys.writeFile(file, text.replace(/(['"])(\.{1,2}\/[^'"]+)\.ts\1/g, '$1$2.js$1'), bom);
  const result = program.emit(undefined, writeFile);
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter(
    (d) => d.category === ts.DiagnosticCategory.Error,
  );
  if (problems.length)
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      }),
    );
  return { files: program.getSourceFiles().filter((f) => !f.isDeclarationFile).length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = performance.now();
  const { files } = buildTypes();
  process.stdout.write(
    `handoff-eval: wrote dist/types/ for ${files} sources in ${Math.round(performance.now() - t0)} ms\n`,
  );
}
