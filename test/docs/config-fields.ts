import ts from 'typescript';
import { join } from 'node:path';
import { repoRoot } from '../support/cli.ts';

const typesFile = join(repoRoot, 'harness/config/types.ts');

/**
 * Every field of UserConfig, read from the type itself with the TypeScript checker: nested into the
 * object types declared in harness/config/types.ts and inline object types (`judge`, `cache`,
 * `provider` per role), records as `<key>`, arrays as `[]`. Arm definitions, sim rates and strategy
 * objects are leaves: they have their own pages.
 */
export function userConfigFields(): string[] {
  const program = ts.createProgram([typesFile], {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(typesFile)!;
  const user = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'UserConfig',
  )!;
  const out: string[] = [];
  const leafTypes = new Set(['ArmInput', 'SimOptions', 'Strategy', 'ModelSpec']);
  const objectsOf = (t: ts.Type): ts.Type[] => {
    const parts = t.isUnion() ? t.types : [t];
    return parts.flatMap((p) => {
      if (checker.isArrayType(p) || checker.isTupleType(p)) return [];
      if (!(p.flags & ts.TypeFlags.Object)) return [];
      const name = (p.aliasSymbol ?? p.getSymbol())?.getName() ?? '';
      if (leafTypes.has(name)) return [];
      const decl = p.getSymbol()?.declarations?.[0];
      const inline = decl && (ts.isTypeLiteralNode(decl) || ts.isMappedTypeNode(decl));
      const ours = decl?.getSourceFile().fileName === typesFile;
      return inline || ours ? [p] : [];
    });
  };
  const walk = (t: ts.Type, path: string, depth: number) => {
    if (depth > 4) return;
    const nonNull = checker.getNonNullableType(t);
    for (const member of nonNull.isUnion() ? nonNull.types : [nonNull])
      if (checker.isArrayType(member))
        for (const o of objectsOf(checker.getTypeArguments(member as ts.TypeReference)[0]!))
          visit(o, `${path}[]`, depth);
    for (const o of objectsOf(nonNull)) visit(o, path, depth);
  };
  /** A record (`Record<K, V>`, `Partial<Record<…>>`, an index signature) is one `<key>` level. */
  const isRecord = (o: ts.Type) => {
    const decl = o.getSymbol()?.declarations?.[0];
    return (
      (decl !== undefined && ts.isMappedTypeNode(decl)) ||
      (!!o.getStringIndexType() && o.getProperties().length === 0)
    );
  };
  const visit = (o: ts.Type, path: string, depth: number) => {
    if (isRecord(o)) {
      const first = o.getProperties()[0];
      const value = first ? checker.getTypeOfSymbol(first) : o.getStringIndexType()!;
      for (const v of objectsOf(checker.getNonNullableType(value))) visit(v, `${path}.<key>`, depth + 1);
      return;
    }
    for (const p of o.getProperties()) {
      const name = `${path}.${p.getName()}`;
      out.push(name);
      walk(checker.getTypeOfSymbol(p), name, depth + 1);
    }
  };
  for (const m of user.members) {
    const name = (m.name as ts.Identifier).text;
    out.push(name);
    walk(checker.getTypeAtLocation(m), name, 1);
  }
  return [...new Set(out)];
}
