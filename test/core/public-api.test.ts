import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { build } from 'esbuild';
import { join } from 'node:path';
import * as api from '../../harness/index.ts';
import { finishHandoff } from '../../strategies/finish.ts';
import { caseOf, contextFor, miniCase } from '../strategies/helpers.ts';
import { buildTranscript } from '../strategies/generate.ts';
import { repoRoot } from '../support/cli.ts';

const entry = join(repoRoot, 'harness/index.ts');
const registry = join(repoRoot, 'strategies/index.ts');

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
  skipLibCheck: true,
  types: [],
};

/**
 * Every name a registered strategy's file imports from another file, with whether the package entry
 * exports that very declaration (followed through re-exports). `extra` adds a file by text, for the
 * negative control.
 */
function strategyImports(extra?: { file: string; text: string }) {
  const host = ts.createCompilerHost(options);
  if (extra) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (f, v, ...rest) =>
      f === extra.file ? ts.createSourceFile(f, extra.text, v) : read(f, v, ...rest);
    const exists = host.fileExists.bind(host);
    host.fileExists = (f) => f === extra.file || exists(f);
  }
  const program = ts.createProgram([entry, registry, ...(extra ? [extra.file] : [])], options, host);
  const checker = program.getTypeChecker();
  const target = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const exported = new Set(
    checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!).map(target),
  );
  const files = [...registeredStrategyFiles(program, checker), ...(extra ? [extra.file] : [])];
  return files.flatMap((file) =>
    program
      .getSourceFile(file)!
      .statements.filter(ts.isImportDeclaration)
      .flatMap((d) => {
        const names: ts.Identifier[] = [];
        const clause = d.importClause;
        if (clause?.name) names.push(clause.name);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.map((e) => e.name));
        if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name);
        const from = (d.moduleSpecifier as ts.StringLiteral).text;
        return names.map((n) => {
          const symbol = checker.getSymbolAtLocation(n)!;
          const resolved = target(symbol);
          return { file, from, name: n.text, exported: exported.has(resolved) };
        });
      })
      .filter((x) => !x.from.startsWith('node:')),
  );
}

/** The files that declare the strategies in the registry (`strategies` in strategies/index.ts). */
function registeredStrategyFiles(program: ts.Program, checker: ts.TypeChecker): string[] {
  const source = program.getSourceFile(registry)!;
  const files = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'strategies') {
      let init = node.initializer!;
      while (ts.isSatisfiesExpression(init) || ts.isAsExpression(init)) init = init.expression;
      for (const p of (init as ts.ObjectLiteralExpression).properties) {
        const value = ts.isShorthandPropertyAssignment(p)
          ? checker.getShorthandAssignmentValueSymbol(p)!
          : checker.getSymbolAtLocation((p as ts.PropertyAssignment).initializer)!;
        const declared = value.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(value) : value;
        files.add(declared.declarations![0]!.getSourceFile().fileName);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...files];
}

describe('the public API (handoff-eval)', () => {
  it('exports every name a registered strategy imports from outside its own file', () => {
    const imports = strategyImports();
    const files = new Set(imports.map((i) => i.file));
    expect(files.size).toBeGreaterThanOrEqual(10); // keyed on the registry: a new strategy is covered
    expect(imports.length).toBeGreaterThan(60);
    expect(imports.some((i) => i.name === 'finishHandoff' && i.from === './compose.ts')).toBe(true);
    expect(imports.filter((i) => !i.exported).map((i) => `${i.file}: ${i.name} from ${i.from}`)).toEqual([]);
  });

  it('the check catches a strategy importing an internal helper the entry does not export', () => {
    const file = join(repoRoot, 'strategies/__kit-control.ts');
    const text =
      "import { requestSeed } from '../harness/runner/calls.ts';\nimport { finishHandoff } from './finish.ts';\nexport { requestSeed, finishHandoff };\n";
    const bad = strategyImports({ file, text }).filter((i) => i.file === file && !i.exported);
    expect(bad.map((i) => i.name)).toEqual(['requestSeed']);
  });

  it('stays light: nothing it imports at load reaches the runner, the CLI, the importers or a report renderer', async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      write: false,
      metafile: true,
      outdir: join(repoRoot, '.light-check'),
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const start = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === 'harness/index.ts')!;
    const loaded = new Set<string>();
    const walk = (k: string) => {
      if (loaded.has(k)) return;
      loaded.add(k);
      for (const i of outputs[k]!.imports) if (i.kind === 'import-statement' && !i.external) walk(i.path);
    };
    walk(start);
    const inputs = [...loaded].flatMap((k) => Object.keys(outputs[k]!.inputs));
    expect(inputs).toContain('strategies/parity-narration.ts');
    expect(inputs.filter((f) => /^(harness\/(runner|cli|importers|cache)\/|reports\/)/.test(f))).toEqual([]);
    // and the kit is there, on first use
    expect(Object.values(outputs).some((o) => 'harness/kit/run-kit.ts' in o.inputs)).toBe(true);
  });

  it('exports the building blocks the docs name, and sweep and checkStrategy', () => {
    for (const name of [
      'defineConfig',
      'defineStrategy',
      'finishHandoff',
      'attachReturn',
      'receiverHistory',
      'renderTranscript',
      'renderSession',
      'planTrails',
      'buildBrick',
      'trimHeadTail',
      'researchResultSpec',
      'validateResearchResult',
      'renderContract',
      'mergeContracts',
      'effectiveSnapshot',
      'framings',
      'countTokens',
      'fence',
      'viewOf',
      'sweep',
      'checkStrategy',
      'strategies',
    ])
      expect(typeof (api as Record<string, unknown>)[name], name).not.toBe('undefined');
  });

  it('documents every export with JSDoc, which is what an editor shows a user hovering over it', () => {
    const program = ts.createProgram([entry], options);
    const checker = program.getTypeChecker();
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
    expect(exports.length).toBeGreaterThan(150);
    const undocumented = exports.filter((e) => {
      const s = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      return !ts.displayPartsToString(s.getDocumentationComment(checker)).trim();
    });
    expect(undocumented.map((e) => e.name)).toEqual([]);
  });
});

describe('finishHandoff', () => {
  it('computes every stat from the messages and the model calls made through ctx.call', async () => {
    const c = await miniCase();
    const ctx = contextFor(c);
    const a = await ctx.call('source', {
      purpose: 'summarize',
      messages: [{ role: 'user', text: 'sum up' }],
      maxTokens: 50,
      sim: api.simHintsOf(c),
    });
    const b = await ctx.call('source', {
      purpose: 'summarize',
      messages: [{ role: 'user', text: 'again' }],
      maxTokens: 60,
      sim: api.simHintsOf(c),
    });
    const messages = api.attachReturn(api.receiverHistory(ctx), `${a.text}\n${b.text}`, 'Returned:');
    const h = finishHandoff(ctx, { system: api.framings.parent, messages });
    const history = c.receiverHistory!.messages.length;
    expect(h.payload).toBe(api.renderMessages(messages).slice(history).join('\n\n'));
    expect(h.stats).toMatchObject({
      chars: h.payload.length,
      tokens: api.countTokens(h.payload),
      markers: [],
      calls: 2,
      inputTokens: a.usage.inputTokens + b.usage.inputTokens,
      outputTokens: a.usage.outputTokens + b.usage.outputTokens,
      latencyMs: a.latencyMs + b.latencyMs,
      retries: 0,
      costUsd: a.costUsd + b.costUsd,
      toolCallsVisible: 0,
      retained: 0,
      dropped: 2, // the mini child's two tool calls, shown nowhere
      manifest: 0,
    });
    expect(h.stats.calls).toBeGreaterThan(0);
  });

  it('counts visible and manifest-listed source calls when the strategy does not count in its own unit', async () => {
    const t = buildTranscript([
      {
        steps: [
          {
            text: true,
            calls: [
              { size: 50, error: false, orphan: false, tool: 0 },
              { size: 50, error: false, orphan: false, tool: 1 },
            ],
            byReceiver: false,
            reversed: false,
          },
        ],
        finalText: true,
        compactBefore: false,
      },
    ]);
    const ctx = contextFor(caseOf(t));
    const line = api.manifestLine(1, 'primary', 2, 'read_file, grep');
    const h = finishHandoff(ctx, { system: 's', messages: [{ role: 'system', text: line }] });
    expect(h.stats).toMatchObject({ toolCallsVisible: 0, retained: 0, manifest: 2, dropped: 0, calls: 0 });
    const shown = finishHandoff(ctx, { system: 's', messages: api.replayable(t.messages) });
    expect(shown.stats).toMatchObject({ toolCallsVisible: 2, retained: 2, manifest: 0, dropped: 0 });
  });
});
