/**
 * Random transcripts and compaction scenarios for the property tests and `npm run fuzz`:
 * valid transcripts of every shape (pinned messages, markers, empty tool lists, results
 * in any order, long and short outputs) and the window, threshold and protected tail to
 * compact them with.
 */
import fc from 'fast-check';
import { prunedMarker } from '../compaction/marker.js';
import { pinMessage } from '../messages/pin.js';
import type { AssistantMessage, Message, ToolMessage } from '../messages/types.js';

const WORDS = [
  'deploy',
  'error',
  'the',
  'config',
  'src/index.ts',
  'user',
  '42',
  'build',
  'cache',
  'ok',
  'null',
  'retry',
];
const TOOL_NAMES = ['search', 'read_file', 'run', 'x', 'http_get'];

const word = fc.constantFrom(...WORDS);
const toolName = fc.constantFrom(...TOOL_NAMES);
/** About one message in six is pinned; shrinking goes towards unpinned. */
const pinned = fc.nat(5).map((n) => n === 5);

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Text under 60 characters: random printable characters or a few words. */
const shortText = fc.oneof(
  fc.string({ maxLength: 59 }),
  fc.array(word, { maxLength: 12 }).map((words) => words.join(' ').slice(0, 59)),
);

const longLength = fc.integer({ min: 200, max: 5_000 });

/** Tool output of 200..5000 characters: prose, JSON lines, a repeated filler character, or random characters. */
const longText = fc.oneof(
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 8 }), longLength)
    .map(([words, length]) => repeatTo(`${words.join(' ')} `, length)),
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 4 }), longLength)
    .map(([words, length]) => repeatTo(words.map((w, i) => `{"id":${i},"name":"${w}"}\n`).join(''), length)),
  fc.tuple(fc.constantFrom('-', '=', ' ', '\n', '0'), longLength).map(([char, length]) => char.repeat(length)),
  fc.string({ minLength: 200, maxLength: 600 }),
);

/** Plain objects (fc.record may build null-prototype ones); long paths make markers cut the arguments. */
const toolArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({}),
  shortText.map((query) => ({ query })),
  fc.tuple(fc.string({ minLength: 100, maxLength: 200 }), fc.nat(1_000)).map(([path, limit]) => ({ path, limit })),
);

/** A tool result that already is a marker, of the current form or the older `[pruned: NAME result, N chars]`. */
const markerText = fc.oneof(
  fc.tuple(toolName, toolArguments, fc.nat(20_000)).map(([name, args, chars]) => prunedMarker(name, args, chars)),
  fc.tuple(toolName, fc.nat(20_000)).map(([name, chars]) => `[pruned: ${name} result, ${chars} chars]`),
);

const resultText = fc.oneof(
  { weight: 3, arbitrary: shortText },
  { weight: 3, arbitrary: longText },
  { weight: 1, arbitrary: markerText },
);

interface CallSpec {
  name: string;
  args: unknown;
  result: string;
  pinResult: boolean;
  isError: boolean;
}

type Block =
  | { kind: 'system' | 'user' | 'reply'; text: string; pinned: boolean }
  | { kind: 'tools'; text: string; calls: CallSpec[]; emptyList: boolean; reversed: boolean; pinned: boolean };

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  name: toolName,
  args: toolArguments,
  result: resultText,
  pinResult: pinned,
  isError: fc.nat(9).map((n) => n === 9),
});

const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const), text: shortText, pinned }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('user' as const), text: fc.oneof(shortText, longText), pinned }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reply' as const), text: shortText, pinned }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      text: fc.oneof(fc.constant(''), shortText),
      calls: fc.array(callSpec, { maxLength: 3, size: 'max' }),
      emptyList: fc.boolean(),
      reversed: fc.boolean(),
      pinned,
    }),
  },
);

function pinIf<M extends Message>(message: M, pin: boolean): M {
  return pin ? pinMessage(message) : message;
}

function plainMessage(kind: 'system' | 'user' | 'reply', text: string): Message {
  if (kind === 'system') return { role: 'system', content: text };
  if (kind === 'user') return { role: 'user', content: text };
  return { role: 'assistant', content: text };
}

/** Builds a valid transcript: every call gets a unique id and exactly one result right after its assistant message. */
function buildTranscript(system: { text: string; pinned: boolean } | null, blocks: readonly Block[]): Message[] {
  const messages: Message[] = [];
  if (system !== null) messages.push(pinIf({ role: 'system', content: system.text }, system.pinned));
  let nextId = 0;
  for (const b of blocks) {
    if (b.kind !== 'tools') {
      messages.push(pinIf(plainMessage(b.kind, b.text), b.pinned));
    } else {
      const calls = b.calls.map((spec) => ({
        spec,
        call: { id: `call_${nextId++}`, name: spec.name, arguments: spec.args },
      }));
      const assistant: AssistantMessage = { role: 'assistant', content: b.text };
      if (calls.length > 0 || b.emptyList) assistant.toolCalls = calls.map(({ call }) => call);
      messages.push(pinIf(assistant, b.pinned));
      const ordered = b.reversed ? [...calls].reverse() : calls;
      for (const { spec, call } of ordered) {
        const result: ToolMessage = { role: 'tool', toolCallId: call.id, content: spec.result };
        if (spec.isError) result.isError = true;
        messages.push(pinIf(result, spec.pinResult));
      }
    }
  }
  return messages;
}

/** Random valid transcripts: system, user, replies and tool turns with results of every kind, some pinned. */
export const transcript: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.option(fc.record({ text: shortText, pinned }), { nil: null }),
    fc.array(block, { maxLength: 14, size: 'max' }),
  )
  .map(([system, blocks]) => buildTranscript(system, blocks));

/** A transcript and the sizes to compact it with. */
export interface Scenario {
  messages: Message[];
  protectedTokens: number | undefined;
  contextWindow: number;
  thresholdPercent: number | undefined;
}

/** Random scenarios: small windows are likelier, so strategies often have to work hard. */
export const scenario: fc.Arbitrary<Scenario> = fc.record({
  messages: transcript,
  protectedTokens: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 500 }) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ),
  // Small windows are likelier, so two-phase often has to summarize after pruning.
  contextWindow: fc.oneof(
    fc.integer({ min: 2_000, max: 6_000 }),
    fc.integer({ min: 2_000, max: 20_000 }),
    fc.integer({ min: 2_000, max: 200_000 }),
  ),
  thresholdPercent: fc.option(
    fc.integer({ min: 5, max: 100 }).map((n) => n / 100),
    { nil: undefined },
  ),
});
