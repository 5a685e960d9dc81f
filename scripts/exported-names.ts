/**
 * Finds exported functions that share a name: `export function x`, and `export const x`
 * holding an arrow or function expression, in every source file of a folder (tests,
 * type tests and .d.ts files left out). One name for one thing: two exported functions
 * with one name are two things a reader (or an import completion) confuses.
 * Run: npx tsx scripts/exported-names.ts [src]   (exit 1 when a name is exported twice)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Where an exported function is declared. */
export interface ExportedFunction {
  name: string;
  /** The file, relative to the folder scanned. */
  file: string;
  line: number;
}

/** The source files under `dir`: .ts, not tests, not declarations. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry) && !/\.test(-d)?\.ts$/.test(entry) && !/\.d\.ts$/.test(entry)) files.push(path);
  }
  return files;
}

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

const holdsFunction = (init: ts.Expression | undefined): boolean => {
  let e = init;
  while (e !== undefined && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)))
    e = e.expression;
  return e !== undefined && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));
};

/** The functions one file exports, by the name they are exported under (re-exports from other files left out). */
export function exportedFunctions(text: string, file: string): ExportedFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const local = new Map<string, ts.Node>();
  const found: ExportedFunction[] = [];
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) {
      // Overloads declare one function several times: count the one with a body, or the first.
      if (
        statement.body === undefined &&
        source.statements.some((s) => s !== statement && isSameFunction(s, statement))
      )
        continue;
      if (isExported(statement)) found.push({ name: statement.name.text, file, line: line(statement) });
      else local.set(statement.name.text, statement);
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !holdsFunction(d.initializer)) continue;
        if (isExported(statement)) found.push({ name: d.name.text, file, line: line(d) });
        else local.set(d.name.text, d);
      }
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier === undefined &&
      statement.exportClause !== undefined &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const spec of statement.exportClause.elements) {
        const node = local.get((spec.propertyName ?? spec.name).text);
        if (node !== undefined) found.push({ name: spec.name.text, file, line: line(node) });
      }
    }
  }
  return found;
}

function isSameFunction(a: ts.Statement, b: ts.FunctionDeclaration): boolean {
  return ts.isFunctionDeclaration(a) && a.body !== undefined && a.name?.text === b.name?.text;
}

/** Every name exported as a function by more than one declaration under `dir`, with where each one is. */
export function duplicateExportedNames(dir: string): Map<string, ExportedFunction[]> {
  const root = resolve(dir);
  const byName = new Map<string, ExportedFunction[]>();
  for (const path of sourceFiles(root)) {
    for (const f of exportedFunctions(readFileSync(path, 'utf8'), relative(root, path))) {
      byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
    }
  }
  return new Map([...byName].filter(([, where]) => where.length > 1).sort(([a], [b]) => a.localeCompare(b)));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const duplicates = duplicateExportedNames(process.argv[2] ?? 'src');
  for (const [name, where] of duplicates) {
    console.log(`${name}: ${where.map((w) => `${w.file}:${w.line}`).join(', ')}`);
  }
  console.log(`exported-names: ${duplicates.size} names exported by more than one function`);
  process.exit(duplicates.size === 0 ? 0 : 1);
}
