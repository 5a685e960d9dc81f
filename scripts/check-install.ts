/**
 * The package as a user gets it: packs it (`npm pack`, which builds it on prepack), installs the
 * tarball into a fresh project for each README example with the packages that example's install
 * line names, from the npm registry, runs the README's set-up commands as written, runs the
 * example with tsx, and checks that
 * - neither npm pack nor npm install prints a warning about this package (its scripts, its
 *   manifest) or about an engine the example's packages refuse (EBADENGINE);
 * - each example prints what the README shows under it, and type-checks (strict) against the
 *   package's published declarations;
 * - `npx lousho --version` runs the installed command, and `npx lousho run` (the main job, with
 *   no model configured) completes in the project that installed it and writes its page.
 * It needs the registry and takes a minute or two, so it is not part of `npm test`.
 * Run: npm run check:install (LOUSHO_KEEP=1 keeps the temporary folder).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedOutput, installedBy, isExample, pageBlocks, ROOT, setupCommands } from '../docs/doc-examples.js';

const PACKAGE = '@lousho/build-ai-agent';
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
/** Strict settings, as a user's project would have them; Node's types from this repository. */
const tscOptions = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck'];
const nodeTypes = ['--typeRoots', join(ROOT, 'node_modules', '@types'), '--types', 'node'];
const work = mkdtempSync(join(tmpdir(), 'lousho-install-'));
const failures: string[] = [];

/** No model configured: no key, no LOUSHO_MODEL, and local servers looked for where none answers. */
const NO_MODEL: NodeJS.ProcessEnv = {
  LOUSHO_MODEL: '',
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  OPENROUTER_API_KEY: '',
  OLLAMA_HOST: 'http://127.0.0.1:1',
  LMSTUDIO_BASE_URL: 'http://127.0.0.1:1/v1',
};

/** Runs a command: its exit code, its stdout and stderr in one string, and its stdout alone. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): { status: number | null; output: string; stdout: string } {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', NO_COLOR: '1', ...env },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trimEnd(), stdout: result.stdout };
}

/** npm's warnings that are ours to fix: about this package, its scripts, or an engine refused. */
function ourWarnings(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /^npm warn/i.test(line))
    .filter((line) => line.includes(PACKAGE) || /script|prepare|EBADENGINE|manifest|package\.json/i.test(line));
}

function check(what: string, ok: boolean, detail: string): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) {
    failures.push(what);
    console.log(detail.replace(/^/gm, '     '));
  }
}

const pack = run('npm', ['pack', '--pack-destination', work, '--json'], ROOT);
const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('\n[') + 1)) as { filename: string }[];
const tarball = join(work, (packed[0] as { filename: string }).filename);
check(`npm pack: ${tarball}`, pack.status === 0, pack.output);
const packWarnings = pack.output.split('\n').filter((l) => /^npm warn/i.test(l));
check('npm pack prints no warning', packWarnings.length === 0, packWarnings.join('\n'));

const blocks = pageBlocks('README.md');
const examples = blocks.filter((b) => isExample(b) && b.lang === 'ts');
for (const [n, example] of examples.entries()) {
  const project = join(work, `readme-example-${n + 1}`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: `readme-example-${n + 1}`, private: true }));
  const where = `README.md:${example.line}`;
  for (const line of setupCommands(blocks, example)) {
    const installs = installedBy(line);
    const command = installs ? line.replace(/#.*$/, '').replace(PACKAGE, tarball) : line;
    const result = run('sh', ['-c', command], project);
    check(`${where}: ${line}`, result.status === 0, result.output);
    if (installs) {
      const warnings = ourWarnings(result.output);
      check(`${where}: npm install prints no warning of ours`, warnings.length === 0, warnings.join('\n'));
      const other = result.output.split('\n').filter((l) => /^npm warn/i.test(l) && !warnings.includes(l));
      for (const line of other) console.log(`     (another package's warning) ${line}`);
    }
  }
  writeFileSync(join(project, 'example.mts'), example.code);
  const result = run(tsx, ['example.mts'], project);
  const expected = expectedOutput(example) ?? '';
  check(
    `${where}: prints what the README shows`,
    result.status === 0 && result.output === expected,
    `exit ${result.status}\n--- printed\n${result.output}\n--- the README shows\n${expected}`,
  );
  const types = run(tsc, [...tscOptions, ...nodeTypes, 'example.mts'], project);
  check(`${where}: type-checks against the published declarations`, types.status === 0, types.output);
  if (n === 0) {
    const bin = run('npx', ['--no-install', 'lousho', '--version'], project);
    check('npx lousho --version runs the installed command', bin.output.includes(version), bin.output);
    // The main job in the user's own project (package.json, node_modules, the example), with no model configured.
    const page = join(work, 'run.html');
    const job = run('npx', ['--no-install', 'lousho', 'run', '--quiet', '--out', page], project, NO_MODEL);
    check(
      'npx lousho run completes in the project that installed it, and writes its page',
      job.status === 0 &&
        job.output.includes(`Report: ${page}`) &&
        readFileSync(page, 'utf8').startsWith('<!doctype html>'),
      `exit ${job.status}\n${job.output}`,
    );
  }
}

if (process.env.LOUSHO_KEEP) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
console.log(failures.length === 0 ? 'check:install passed' : `check:install: ${failures.length} failed`);
process.exitCode = failures.length === 0 ? 0 : 1;
