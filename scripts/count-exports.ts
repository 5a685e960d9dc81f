/**
 * Counts the names each entry point of the package exports, types and values apart, as the
 * TypeScript checker resolves them (re-exports followed), so the size of the public surface is
 * a number anyone can reproduce rather than a guess. With --unimported it also lists the main
 * entry's names that no other file imports: not the source (the entry and the file that declares
 * the name left out), the tests, the bench, the scripts, the examples, nor the Markdown docs'
 * code blocks. Those are the first candidates to move off the main entry.
 * Run: npx tsx scripts/count-exports.ts [--list] [--unimported]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The published subpath and the source file behind it, read from package.json's "exports". */
export function entryPoints(): { subpath: string; file: string }[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, { types: string }>;
  };
  return Object.entries(pkg.exports).map(([subpath, target]) => ({
    subpath,
    file: join(root, target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')),
  }));
}

/** One exported name: whether it is a type only, and the file that declares it. */
export interface ExportedName {
  name: string;
  kind: 'type' | 'value';
  declaredIn: string;
}

/** The names each entry file exports, resolved through re-exports. */
export function exportedNames(files: string[]): Map<string, ExportedName[]> {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const result = new Map<string, ExportedName[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`count-exports: ${file} is not a module`);
    const names = checker.getExportsOfModule(module).map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = target.declarations?.[0];
      // `export type { SomeClass }` exports a type only, though the class is a value.
      const typeOnly = symbol.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d)) ?? false;
      return {
        name: symbol.name,
        kind: target.flags & ts.SymbolFlags.Value && !typeOnly ? 'value' : 'type',
        declaredIn: declaration === undefined ? '' : relative(root, declaration.getSourceFile().fileName),
      } satisfies ExportedName;
    });
    result.set(file, names);
  }
  return result;
}

function walk(dir: string, match: RegExp): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...walk(path, match));
    else if (match.test(entry)) files.push(path);
  }
  return files;
}

/** The names each file brings in with an import (or re-export) declaration. */
function importedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]+['"]/g)) {
    for (const part of (m[1] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** The main entry's names that no file imports but the entry itself and the file that declares them. */
export function unimportedNames(entry: string, names: ExportedName[]): ExportedName[] {
  const files = [...walk(root, /\.(ts|md)$/)].filter((f) => !f.endsWith('.d.ts') && f !== entry);
  const importers = new Map<string, Set<string>>();
  for (const file of files) {
    for (const name of importedNames(readFileSync(file, 'utf8'))) {
      importers.set(name, (importers.get(name) ?? new Set()).add(relative(root, file)));
    }
  }
  return names.filter((n) => [...(importers.get(n.name) ?? [])].every((f) => f === n.declaredIn));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entries = entryPoints();
  const byFile = exportedNames(entries.map((e) => e.file));
  for (const { subpath, file } of entries) {
    const names = byFile.get(file) ?? [];
    const values = names.filter((n) => n.kind === 'value').length;
    console.log(`${subpath}: ${names.length} names (${values} values, ${names.length - values} types)`);
    if (process.argv.includes('--list')) for (const n of names) console.log(`  ${n.kind} ${n.name}  ${n.declaredIn}`);
  }
  if (process.argv.includes('--unimported')) {
    const main = entries.find((e) => e.subpath === '.');
    if (main !== undefined) {
      const unused = unimportedNames(main.file, byFile.get(main.file) ?? []);
      console.log(`. names no other file imports: ${unused.length}`);
      for (const n of unused) console.log(`  ${n.kind} ${n.name}  ${n.declaredIn}`);
    }
  }
}
