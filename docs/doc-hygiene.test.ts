/**
 * What examples.test.ts cannot see by running the examples: that every code block of the README
 * and the guides is run by it (or marked as not runnable, for a reason checked here), that each
 * example's install line names what it needs, that the package name resolves in the tests as the
 * published package's exports would, and that the pages speak of the project alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import vitestConfig from '../vitest.config.js';
import {
  type DocBlock,
  docPages,
  expectedOutput,
  importedPackages,
  installedBy,
  installLineOf,
  isExample,
  NOT_RUN_REASONS,
  packageName,
  pageBlocks,
  ROOT,
  setupBefore,
} from './doc-examples.js';
import { isPublished } from './run-example.js';

const PACKAGE = '@lousho/build-ai-agent';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { types: string; import: string }>;
  files: string[];
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const pages = docPages().map((page) => ({
  page,
  blocks: pageBlocks(page),
  text: readFileSync(join(ROOT, page), 'utf8'),
}));
const allBlocks = pages.flatMap((p) => p.blocks);
const where = (b: DocBlock) => `${b.page}:${b.line}`;

/**
 * The optional peers the package loads when a block uses one of these (the rest of its API
 * needs none); every optional peer is listed, and each is loaded by the source (checked below).
 */
const PEER_USES: Record<string, RegExp | null> = {
  'better-sqlite3': /\bSqliteSessionStore\b/,
  pg: /\bPostgresSessionStore\b/,
  bullmq: /['"]@lousho\/build-ai-agent\/bullmq['"]/,
  'pg-boss': /['"]@lousho\/build-ai-agent\/pg-boss['"]/,
  openai: /\bcreate(?:OpenAICompatible|OpenAI|OpenRouter|Ollama|LMStudio)\(/,
  '@anthropic-ai/sdk': /\bcreateAnthropic\(/,
  '@modelcontextprotocol/sdk': /\bmcpServers\b/,
  // Types only: fromAISDK() takes a model made with the AI SDK provider the example imports.
  '@ai-sdk/provider': null,
};

/** What a not-run reason claims, checked on the block. */
const REASON_CHECKS: Record<keyof typeof NOT_RUN_REASONS, (b: DocBlock) => void> = {
  declarations: (b) => {
    expect(b.lang, where(b)).toBe('ts');
    const code = b.code.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    // Every top-level statement opens with `interface` or `type` (bodies are indented).
    const topLevel = code.split('\n').filter((l) => /^\S/.test(l) && !/^[}\])]/.test(l));
    for (const line of topLevel) expect(line, where(b)).toMatch(/^(export )?(interface|type) \w/);
  },
  clone: (b) => {
    expect(b.lang, where(b)).toBe('sh');
    for (const line of b.code.split('\n').filter((l) => l.trim() !== '')) {
      const [, script] = /^npm ci && npm (?:run )?(\S+)\s*(#.*)?$/.exec(line) ?? [];
      expect(script && pkg.scripts[script], `${where(b)}: ${line}`).toBeDefined();
    }
  },
};

describe('every code block of the README and the guides is run, or marked with a checked reason', () => {
  it('finds the pages, with their examples', () => {
    expect(pages.map((p) => p.page)).toContain('README.md');
    expect(allBlocks.filter(isExample).length).toBeGreaterThan(30);
  });

  it('names a language on every block, one the tests know (ts and sh are run, text is output or prose)', () => {
    for (const b of allBlocks) expect(['ts', 'sh', 'text'], `${where(b)} is a \`\`\`${b.lang} block`).toContain(b.lang);
  });

  it('shows what each example prints, one way', () => {
    for (const b of allBlocks.filter(isExample)) {
      expect(expectedOutput(b), `${where(b)} shows nothing it prints`).toBeDefined();
      if (b.output !== undefined)
        expect(b.code, `${where(b)} has both a text block and // prints:`).not.toMatch(/\/\/ prints:/);
    }
  });

  it('runs every set-up block before some example', () => {
    for (const { blocks } of pages)
      for (const b of blocks.filter((x) => x.lang === 'sh' && x.output === undefined && !x.notRun))
        expect(
          blocks.some((e) => isExample(e) && setupBefore(blocks, e).includes(b)),
          `${where(b)} sets up no example after it, so nothing runs it`,
        ).toBe(true);
  });

  it('gives each block it does not run a known reason, and the reason holds', () => {
    const marked = allBlocks.filter((b) => b.notRun !== undefined);
    for (const b of marked) {
      const reason = b.notRun as keyof typeof NOT_RUN_REASONS;
      expect(Object.keys(NOT_RUN_REASONS), `${where(b)}: not run for "${b.notRun}"`).toContain(reason);
      REASON_CHECKS[reason](b);
    }
  });

  it('fails a block that is run by nothing: an unmarked ```ts block is an example, a marked one must be declarations', () => {
    const page = 'docs/x.md';
    const block = (lang: string, code: string, notRun?: string): DocBlock => ({
      page,
      index: 1,
      line: 1,
      lang,
      code,
      heading: '',
      output: undefined,
      notRun,
    });
    expect(isExample(block('ts', 'console.log(1);\n'))).toBe(true);
    expect(expectedOutput(block('ts', 'console.log(1);\n'))).toBeUndefined();
    expect(() =>
      REASON_CHECKS.declarations(block('ts', 'interface A {\n  a: number;\n}\nconsole.log(1);\n')),
    ).toThrow();
    expect(() => REASON_CHECKS.clone(block('sh', 'npm ci && npm run nothing-of-that-name\n'))).toThrow();
  });
});

describe('install lines', () => {
  it('precede each example with the packages it imports and the optional peers it loads', () => {
    for (const { blocks } of pages) {
      for (const b of blocks.filter((x) => isExample(x) && x.lang === 'ts')) {
        const needs = new Set(importedPackages(b.code));
        for (const [peer, use] of Object.entries(PEER_USES)) if (use?.test(b.code)) needs.add(peer);
        if (needs.size === 0) continue;
        const line = installLineOf(blocks, b);
        expect(line, `${where(b)} imports ${[...needs].join(', ')} with no npm install line above it`).toBeDefined();
        for (const name of needs)
          expect(line, `${where(b)} needs ${name}: its install line does not name it`).toContain(name);
      }
    }
  });

  it('name only this package and others at the major version the tests run the examples with', () => {
    const lines = allBlocks.filter((b) => b.lang === 'sh').flatMap((b) => b.code.split('\n'));
    const specs = lines.flatMap((l) => (installedBy(l) ? l.replace(/#.*$/, '').trim().split(/\s+/).slice(2) : []));
    expect(specs).toContain(PACKAGE);
    for (const spec of specs.filter((s) => !s.startsWith('-') && s !== PACKAGE)) {
      const name = packageName(spec);
      const tested = pkg.devDependencies[name];
      expect(tested, `${spec}: not a package the tests have`).toBeDefined();
      // Without a major, npm installs the newest, which may not be what runs here (ai 7 needs Node 22).
      const major = spec.slice(name.length).match(/^@(\d+)$/)?.[1];
      expect(major, `${spec}: name the major version the tests run (${name}@${/\d+/.exec(tested ?? '')?.[0]})`).toBe(
        /\d+/.exec(tested ?? '')?.[0],
      );
      const peer = pkg.peerDependencies[name];
      if (peer)
        expect(Number(major), `${spec} against the peer range ${peer}`).toBeGreaterThanOrEqual(
          Number(/>=(\d+)/.exec(peer)?.[1] ?? 0),
        );
      if (peer?.includes('<'))
        expect(Number(major), `${spec} against the peer range ${peer}`).toBeLessThan(Number(/<(\d+)/.exec(peer)?.[1]));
    }
  });

  it('know every optional peer of the package, each loaded by the source', () => {
    const optional = Object.keys(pkg.peerDependencies);
    expect(Object.keys(PEER_USES).sort()).toEqual(optional.sort());
    for (const [peer, use] of Object.entries(PEER_USES)) {
      if (use === null) continue;
      const loaders = allSourceText().filter((s) => s.includes(`import('${peer}`) || s.includes(`require('${peer}'`));
      expect(loaders.length, `${peer} is loaded by no source file`).toBeGreaterThan(0);
    }
  });

  it('copy from the installed package only what it publishes', () => {
    const copied = [
      ...pages
        .map((p) => p.text)
        .join('\n')
        .matchAll(/node_modules\/@lousho\/build-ai-agent\/(\S+?)[\s`)]/g),
    ];
    expect(copied.length).toBeGreaterThan(0);
    for (const [, path] of copied) {
      expect(isPublished(path as string), `${path} is not in package.json "files"`).toBe(true);
      expect(existsSync(join(ROOT, path as string)), `${path} does not exist`).toBe(true);
    }
  });
});

describe('the package name in the examples resolves as the published package would', () => {
  it("maps each of the package's exports, and only those, to the source its build compiles", () => {
    const aliases = (vitestConfig.resolve?.alias ?? []) as { find: RegExp; replacement: string }[];
    const paths = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths as Record<
      string,
      string[]
    >;
    const expected = Object.entries(pkg.exports).map(([subpath, target]) => ({
      name: `${PACKAGE}${subpath.slice(1)}`,
      source: target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
    }));
    expect(aliases).toHaveLength(expected.length);
    expect(Object.keys(paths).sort()).toEqual(expected.map((e) => e.name).sort());
    for (const { name, source } of expected) {
      const alias = aliases.find((a) => a.find.test(name));
      expect(alias?.replacement, name).toBe(join(ROOT, source));
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(paths[name], name).toEqual([`./${source}`]);
    }
    for (const alias of aliases) expect(alias.find.test(`${PACKAGE}/internal`)).toBe(false);
  });
});

describe('the pages speak of the project alone', () => {
  it('has the two set-up commands of a clone in the README, and only those', () => {
    const setup = pages[0]?.blocks.filter((b) => b.notRun === 'clone') ?? [];
    const commands = setup.flatMap((b) => b.code.split('\n')).map((l) => l.replace(/#.*$/, '').trim());
    expect(commands.filter(Boolean)).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  it("shows the README's three ways in as docs/three-ways-in.md does, word for word", () => {
    const code = (page: string) =>
      pages
        .find((p) => p.page === page)
        ?.blocks.filter((b) => b.lang !== 'text' && !b.notRun)
        .map((b) => b.code) ?? [];
    const ways = code('docs/three-ways-in.md');
    expect(ways).toHaveLength(6); // an install line and an example for each way
    expect(code('README.md').slice(0, ways.length)).toEqual(ways);
  });

  it('never mentions the specification files, folders outside the repository, or its issues', () => {
    for (const { page, text } of pages) {
      expect(text, page).not.toMatch(/\bseeds?\b/i);
      expect(text, page).not.toMatch(/\.\.\/shared|\/work\/|\bissues? \d/i);
    }
  });

  it('links only to files of the repository', () => {
    for (const { page, text } of pages) {
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue;
        const path = join(ROOT, page, '..', target as string);
        expect(existsSync(path), `${page} links to ${target}, which is not in the repository`).toBe(true);
      }
    }
  });
});

/** The text of every source file that is not a test. */
function allSourceText(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('test-support'))
    .map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));
}
