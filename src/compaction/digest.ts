/**
 * The digest of a pruned tool result: within a small budget, the names it showed that a
 * next command is likely to use (file paths, defined and compound identifiers, the first
 * error line), so a marker keeps them after the content is gone. Bounded work: a result
 * is read once, from its first MAX_SCAN_CHARS characters and its last ones.
 */

/** Characters of a result a digest reads: its head and its tail. */
const MAX_SCAN_CHARS = 64_000;

/** Words too common in shell output and code to be worth keeping. */
const COMMON = new Set(
  (
    'self none true false null return import from class def print file line lines path name type value values ' +
    'error errors warning test tests testbed result results data self.assert assert with open read write else elif ' +
    'this that then there where what when which also into only same some such than them they have been were will ' +
    'would should could does done make made many most much must need note other over used uses using want well ' +
    'instead without within still look found total drwxr drwxrwxr root staff tmp usr bin lib local share include ' +
    'python python3 pytest self.fail args kwargs string number object list dict tuple int str float bool'
  ).split(' '),
);

/** Splits text into candidate tokens (no regular expression here backtracks over a long run). */
const SEPARATORS = /[\s"'`()<>[\]{},;=:|]+/;
const EXTENSION = /\.(?:py|js|ts|tsx|jsx|json|md|rst|txt|cfg|ini|toml|yaml|yml|c|h|cc|cpp|go|rs|java|rb|sh|html|css)$/;
const DOTTED = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const DEFINED = /\b(?:def|class|function|interface|type|struct|fn|func)\s+([A-Za-z_][A-Za-z0-9_]{0,80})/g;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]{3,}/g;
const ERROR_WORD = /\b(?:Error|Exception|Traceback|FAILED|FAIL|failed|assert|assertion)\b/;

function isPathToken(token: string): boolean {
  if (token.includes('/')) return /[A-Za-z0-9_]{2,}/.test(token) && !token.startsWith('-');
  return EXTENSION.test(token);
}

/** Compound names (snake_case, camelCase, dotted) say more than plain words. */
function isCompound(word: string): boolean {
  return word.includes('_') || /[a-z][A-Z]/.test(word) || /^[A-Z][a-z]+[A-Z]/.test(word);
}

function scanned(text: string): string {
  if (text.length <= MAX_SCAN_CHARS) return text;
  const half = MAX_SCAN_CHARS / 2;
  return `${text.slice(0, half)}\n${text.slice(text.length - half)}`;
}

/**
 * The names a result showed, most useful first: its first error line, the paths, the names
 * it defines, then compound identifiers in order of appearance. Names in `known` (already
 * shown elsewhere, such as the call's own arguments) are left out. Returns as many as fit
 * in `maxChars` (joined with ', '), or '' when none does.
 */
export function digestOf(text: string, maxChars: number, known: ReadonlySet<string> = new Set()): string {
  if (maxChars <= 0 || text === '') return '';
  const source = scanned(text);
  const picked: string[] = [];
  const seen = new Set<string>();
  let length = 0;
  const take = (item: string): boolean => {
    const clean = item.trim();
    if (clean.length < 3 || seen.has(clean) || known.has(clean)) return true;
    seen.add(clean);
    const cost = clean.length + (picked.length === 0 ? 0 : 2);
    if (length + cost > maxChars) return length + 8 <= maxChars; // keep trying shorter ones while room is left
    picked.push(clean);
    length += cost;
    return true;
  };
  const error = source
    .split('\n')
    .find((line) => line.length < 2_000 && ERROR_WORD.test(line))
    ?.trim();
  if (error !== undefined) take(error.length > 100 ? `${error.slice(0, 100)}…` : error);
  const tokens = source
    .split(SEPARATORS)
    .filter((t) => t.length >= 3 && t.length <= 200)
    .map((t) => t.replace(/^\.\//, '').replace(/[./!?]+$/, ''));
  const words = tokens.flatMap((t) => t.match(IDENTIFIER) ?? []).filter((w) => !COMMON.has(w.toLowerCase()));
  const groups: Iterable<string>[] = [
    tokens.filter(isPathToken),
    [...source.matchAll(DEFINED)].map((m) => m[1] ?? ''),
    tokens.filter((t) => DOTTED.test(t)),
    words.filter(isCompound),
  ];
  for (const group of groups) {
    for (const item of group) if (!take(item)) return picked.join(', ');
  }
  return picked.join(', ');
}
