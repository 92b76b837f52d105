// Functions over 60 lines and files over 300 lines in the sources (DEVELOPERS.md: functions ≤ ~60,
// files ≤ ~300 at width 110), measured with the TypeScript parser on the formatted tree. A function's
// lines run from its first line (its declaration, not its doc comment) to its closing brace; a nested
// function is counted on its own and inside its parent.
//
//   node scripts/sizes.mjs [folder...]      default: harness strategies cases judges reports
//   node scripts/sizes.mjs --json [folder...]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const FUNCTION_LIMIT = 60;
export const FILE_LIMIT = 300;
const defaultFolders = ['harness', 'strategies', 'cases', 'judges', 'reports'];

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') walk(path, out);
    } else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function functionName(node, sf) {
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p)) return p.name.getText(sf);
  if (p && ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (p && ts.isCallExpression(p)) return `(callback of ${p.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function-like node with a body, its name and its line count. */
export function functionsOf(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      out.push({ name: functionName(node, sf), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Long functions and long files under the given folders (repo-relative). */
export function measure(root, folders = defaultFolders) {
  const longFunctions = [];
  const longFiles = [];
  for (const file of folders.flatMap((f) => walk(join(root, f)))) {
    const path = relative(root, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > FILE_LIMIT) longFiles.push({ file: path, lines });
    for (const f of functionsOf(file, text))
      if (f.lines > FUNCTION_LIMIT) longFunctions.push({ file: path, ...f });
  }
  longFunctions.sort((a, b) => b.lines - a.lines);
  longFiles.sort((a, b) => b.lines - a.lines);
  return { longFunctions, longFiles };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const folders = args.filter((a) => a !== '--json');
  const root = join(fileURLToPath(new URL('..', import.meta.url)));
  const r = measure(root, folders.length ? folders : defaultFolders);
  if (json) console.log(JSON.stringify(r, null, 2));
  else {
    console.log(`functions over ${FUNCTION_LIMIT} lines: ${r.longFunctions.length}`);
    for (const f of r.longFunctions) console.log(`  ${f.lines}\t${f.file}:${f.line} ${f.name}`);
    console.log(`files over ${FILE_LIMIT} lines: ${r.longFiles.length}`);
    for (const f of r.longFiles) console.log(`  ${f.lines}\t${f.file}`);
  }
}
