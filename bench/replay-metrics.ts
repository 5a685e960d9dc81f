/**
 * The metrics of the replay benchmark, as pure functions: what a request costs under a
 * prompt cache, and how many of the names an agent's next command uses were still in
 * front of it.
 */

import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText } from '../src/models/estimate-tokens.js';

/** Share of the price a cached prompt token costs (OpenAI's and Anthropic's cache reads: 10%). */
export const CACHED_TOKEN_RATE = 0.1;

/** How a provider prices prompt tokens, as shares of the full input price. */
export interface PriceModel {
  name: string;
  /** A token read from the prompt cache. */
  read: number;
  /** A token not in the cache: 1 when writing to the cache is free, more when it is billed. */
  write: number;
}

/** OpenAI: cached input at 10%, writing to the cache free. */
export const OPENAI_PRICES: PriceModel = { name: 'OpenAI', read: 0.1, write: 1 };
/**
 * Anthropic: cache reads at 10%, cache writes at 125%. The replay bills it with the
 * breakpoints the Anthropic provider places (./anthropic-breakpoint-meter.ts): a request
 * reads only what they made cached and writes up to its newest breakpoint.
 */
export const ANTHROPIC_PRICES: PriceModel = { name: 'Anthropic', read: 0.1, write: 1.25 };
/** The price models the replay bills under, in report order. */
export const PRICE_MODELS: readonly PriceModel[] = [OPENAI_PRICES, ANTHROPIC_PRICES];

// ---------------------------------------------------------------------------------------
// Billing under a prompt cache
// ---------------------------------------------------------------------------------------

function sameToolCalls(a: Message, b: Message): boolean {
  const ca = a.role === 'assistant' ? a.toolCalls : undefined;
  const cb = b.role === 'assistant' ? b.toolCalls : undefined;
  if (ca === cb) return true;
  if (ca === undefined || cb === undefined || ca.length !== cb.length)
    return (ca?.length ?? 0) + (cb?.length ?? 0) === 0;
  return ca.every((call, i) => {
    const other = cb[i];
    return (
      other !== undefined &&
      call.id === other.id &&
      call.name === other.name &&
      argumentsText(call.arguments) === argumentsText(other.arguments)
    );
  });
}

/** True when two messages would be sent as the same bytes: the same object, or the same role, content, calls and call id. */
export function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  if (a.role !== b.role) return false;
  if (a.content !== b.content) {
    if (typeof a.content === 'string' || typeof b.content === 'string') return false;
    if (JSON.stringify(a.content) !== JSON.stringify(b.content)) return false;
  }
  if (a.role === 'tool' && b.role === 'tool' && a.toolCallId !== b.toolCallId) return false;
  return sameToolCalls(a, b);
}

/** Number of leading messages `next` shares with `previous` (0 when there is no previous request). */
export function commonPrefixLength(previous: readonly Message[] | undefined, next: readonly Message[]): number {
  if (previous === undefined) return 0;
  const limit = Math.min(previous.length, next.length);
  let i = 0;
  while (i < limit && sameMessage(previous[i] as Message, next[i] as Message)) i++;
  return i;
}

/** What one request costs. */
export interface RequestBill {
  /** Every prompt token of the request. */
  tokens: number;
  /** The tokens of the prefix shared with the previous request, served from the cache. */
  cachedTokens: number;
  /** tokens - cachedTokens at the write price, cachedTokens at the read price. */
  billedTokens: number;
}

const pricesOf = (rate: number | PriceModel): PriceModel =>
  typeof rate === 'number' ? { name: 'custom', read: rate, write: 1 } : rate;

/**
 * The bill of one request under a prompt cache: the fixed part (framing and tool
 * definitions, sent first) and the messages identical to the previous request's, from the
 * first message on, are cached and billed at the read price; the rest at the write price
 * (the full price, or more where writing to the cache is billed). The first request pays
 * everything. `rate` is a PriceModel, or the read price with free writes.
 */
export function billRequest(
  previous: readonly Message[] | undefined,
  next: readonly Message[],
  countMessage: (message: Message) => number,
  fixedTokens: number,
  rate: number | PriceModel = CACHED_TOKEN_RATE,
): RequestBill {
  const prices = pricesOf(rate);
  const shared = commonPrefixLength(previous, next);
  let tokens = fixedTokens;
  let cachedTokens = previous === undefined ? 0 : fixedTokens;
  next.forEach((message, i) => {
    const t = countMessage(message);
    tokens += t;
    if (i < shared) cachedTokens += t;
  });
  return { tokens, cachedTokens, billedTokens: (tokens - cachedTokens) * prices.write + cachedTokens * prices.read };
}

/** Sums the bills of a sequence of requests (one run): feed it every request in order. */
export class BillingMeter {
  #previous: readonly Message[] | undefined;
  #previousTools: string | undefined;
  tokens = 0;
  cachedTokens = 0;
  billedTokens = 0;

  constructor(
    readonly countMessage: (message: Message) => number,
    readonly fixedTokens: number,
    readonly rate: number | PriceModel = CACHED_TOKEN_RATE,
  ) {}

  /**
   * Bills `request` against the previous one; keeps a copy of it for the next. `tools`, when
   * given, is the fixed part of this request (its tokens, and a key naming the tool
   * definitions): the tools come first, so a request whose tools changed shares nothing cached.
   */
  add(request: readonly Message[], tools?: { tokens: number; key: string }): RequestBill {
    const changed = tools !== undefined && this.#previousTools !== undefined && tools.key !== this.#previousTools;
    const previous = changed ? undefined : this.#previous;
    const bill = billRequest(previous, request, this.countMessage, tools?.tokens ?? this.fixedTokens, this.rate);
    this.#previous = request.slice();
    if (tools !== undefined) this.#previousTools = tools.key;
    this.tokens += bill.tokens;
    this.cachedTokens += bill.cachedTokens;
    this.billedTokens += bill.billedTokens;
    return bill;
  }
}

// ---------------------------------------------------------------------------------------
// Identifier loss
// ---------------------------------------------------------------------------------------

/** Shell and Python words too common to say anything about what the agent remembers. */
const COMMON_WORDS = new Set(
  (
    'echo grep egrep sed awk python python3 print printf import from return class self none true false null ' +
    'head tail find xargs cat less more sort uniq diff apply then else elif done while with open read write ' +
    'testbed name type file files path line lines exit test tests range list dict tuple bool str int float ' +
    'bash sh rm mkdir touch chmod install pytest pip tmp dev usr bin env assert except raise pass lambda yield ' +
    'async await global case esac function local shift unset eval exec trap wait sleep kill time timeout tee ' +
    'paste join split column stdout stderr stdin argv main color always never include exclude recursive count ' +
    'number print0 maxdepth iname ignore output input error result value values items keys replace strip format ' +
    'encoding utf8 text status show cached stat source export noqa todo init __init__ __main__ __name__ ' +
    'data content contents string strings first last next prev before after start stop begin check verify ' +
    'make build run runs running script scripts temp tmpfile code this that there where what when ' +
    'which also into only same some such than them they have been were will would should could does ' +
    'complete_task_and_submit_final_output git commit checkout branch stash reset quiet verbose ' +
    // Common English words of comments and echoed messages.
    'about above again against because being below between both each even every here their these those ' +
    'through under until very your just like make made many most much must need needs note other over ' +
    'please ensure expect expected changed change changes fixed fix fixes wrong right correct works work ' +
    'used uses using want well instead without within already still then them there show shows shown ' +
    'look looks found print printed prints should now okay done sure'
  )
    .split(/\s+/)
    .filter((w) => w !== ''),
);

const PATH = /[\w./-]+/g;
const DOTTED = /^[\w./-]*[A-Za-z_]\w*\.\w+$|^[\w./-]*\w\.[A-Za-z_]\w*$/;
const IDENTIFIER = /\b[A-Za-z_][A-Za-z0-9_]{3,}\b/g;
const DOUBLE_QUOTED = /"((?:[^"\\\n]|\\.){3,120})"/g;
const SINGLE_QUOTED = /'([^'\n]{3,120})'/g;

function isPath(token: string): boolean {
  if (token.length < 3 || !/[A-Za-z]/.test(token) || token.startsWith('-')) return false;
  if (token.includes('/')) return /[A-Za-z0-9_]{2,}/.test(token);
  return DOTTED.test(token);
}

/**
 * The names a command uses that could come from what the agent read: file paths (tokens
 * of the form `dir/name` or `name.ext`), identifiers of four characters or more that are
 * not common shell or Python words, and the contents of quoted strings. Deduplicated, in
 * order of first appearance.
 */
export function extractReferences(command: string): string[] {
  const found = new Set<string>();
  for (const match of command.matchAll(PATH)) {
    const token = match[0].replace(/[./]+$/, '');
    if (isPath(token)) found.add(token);
  }
  for (const match of command.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (!COMMON_WORDS.has(word.toLowerCase())) found.add(word);
  }
  for (const pattern of [DOUBLE_QUOTED, SINGLE_QUOTED]) {
    for (const match of command.matchAll(pattern)) {
      const inner = (match[1] ?? '').trim();
      if (inner.length >= 3 && /[A-Za-z]{2}/.test(inner)) found.add(inner);
    }
  }
  return [...found];
}

/** The command of a bash tool call (its `command` argument), else the arguments as JSON text. */
export function commandOf(args: unknown): string {
  if (typeof args === 'object' && args !== null && 'command' in args) {
    const command = (args as { command: unknown }).command;
    if (typeof command === 'string') return command;
  }
  return argumentsText(args);
}

/** Everything of a message the model reads as text: its content and the commands of its tool calls. */
export function visibleText(message: Message): string {
  const text = contentText(message.content);
  if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) return text;
  return [text, ...message.toolCalls.map((call) => commandOf(call.arguments))].join('\n');
}

/** A reference with the messages of the original transcript that show it. */
export interface TrackedReference {
  text: string;
  /** The original messages whose visible text contains `text` (never empty for a tracked reference). */
  holders: readonly Message[];
}

/**
 * Finds which messages of a transcript show a string, scanning each (string, message)
 * pair at most once as the replay moves forward.
 */
export class ReferenceIndex {
  readonly #messages: readonly Message[];
  readonly #texts: (string | undefined)[];
  readonly #scans = new Map<string, { upTo: number; holders: Message[] }>();

  constructor(messages: readonly Message[]) {
    this.#messages = messages;
    this.#texts = new Array<string | undefined>(messages.length);
  }

  #text(i: number): string {
    let text = this.#texts[i];
    if (text === undefined) {
      text = visibleText(this.#messages[i] as Message);
      this.#texts[i] = text;
    }
    return text;
  }

  /** The messages among the first `end` that show `text`. */
  holders(text: string, end: number): Message[] {
    let scan = this.#scans.get(text);
    if (scan === undefined) {
      scan = { upTo: 0, holders: [] };
      this.#scans.set(text, scan);
    }
    for (; scan.upTo < end; scan.upTo++) {
      if (this.#text(scan.upTo).includes(text)) scan.holders.push(this.#messages[scan.upTo] as Message);
    }
    return end === scan.upTo ? scan.holders : scan.holders.filter((m) => this.#messages.indexOf(m) < end);
  }

  /**
   * The references of the command at message `index` (an assistant message) that the
   * model could see before it: those shown by some message before `index`.
   */
  visibleReferences(index: number): TrackedReference[] {
    const message = this.#messages[index];
    if (message?.role !== 'assistant') return [];
    const refs = new Set<string>();
    for (const call of message.toolCalls ?? [])
      for (const r of extractReferences(commandOf(call.arguments))) refs.add(r);
    const out: TrackedReference[] = [];
    for (const text of refs) {
      const holders = this.holders(text, index);
      if (holders.length > 0) out.push({ text, holders });
    }
    return out;
  }
}

/**
 * The share of `refs` that `request` no longer shows, or undefined when there are none.
 * A reference is shown when one of its original holders is still in the request, or when
 * a message the policy wrote (a marker, a summary, a placeholder) contains it.
 * `isOriginal` tells the messages of the original transcript from those a policy wrote.
 */
export function lostShare(
  refs: readonly TrackedReference[],
  request: readonly Message[],
  isOriginal: (message: Message) => boolean,
): number | undefined {
  if (refs.length === 0) return undefined;
  const present = new Set<Message>();
  const written: string[] = [];
  for (const message of request) {
    if (isOriginal(message)) present.add(message);
    else written.push(visibleText(message));
  }
  let lost = 0;
  for (const ref of refs) {
    const shown = ref.holders.some((m) => present.has(m)) || written.some((text) => text.includes(ref.text));
    if (!shown) lost++;
  }
  return lost / refs.length;
}
