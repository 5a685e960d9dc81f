import fc from 'fast-check';
import { type Carries, toolArguments } from './message-arbitraries.js';

/*
 * Random transcripts in other libraries' formats, as real logs hold them: nulls, parts,
 * extra fields, items and blocks our Message has no field for, and some invalid messages.
 */

export const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', 'ok', '{"a": 1}', 'émoji 🚀'));
export const id = fc.oneof(
  fc.constantFrom('call_1', 'call_2', 'call_3', 'toolu_9'),
  fc.string({ minLength: 1, maxLength: 6 }),
);
export const name = fc.constantFrom('bash', 'search', 'read_file');
export const argumentsText = fc.oneof(
  toolArguments.map((a) => JSON.stringify(a)),
  toolArguments.map((a) => JSON.stringify(a, null, 1)),
  fc.constantFrom('', '{"command": "ls -la"}', 'not json', '{"cut": "at the li'),
);
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
export const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

const anthropicImage = fc.oneof(
  fc.record({
    type: fc.constant('image'),
    source: fc.record({
      type: fc.constant('base64'),
      media_type: fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp'),
      data: fc.constant(PNG),
    }),
  }),
  fc.record({
    type: fc.constant('image'),
    source: fc.record({ type: fc.constant('url'), url: fc.constant('https://x.test/c.jpg') }),
  }),
);
const anthropicText = fc.record(
  { type: fc.constant('text'), text, cache_control: opt(fc.constant({ type: 'ephemeral' })) },
  { requiredKeys: ['type', 'text'] },
);

/** Anthropic Messages API transcripts: `{ system, messages }`. */
export const anthropicTranscripts = fc.record({
  system: opt(fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 2 }))),
  messages: fc.array(
    fc.oneof(
      fc.record({
        role: fc.constant('user'),
        content: fc.oneof(
          text,
          fc.array(
            fc.oneof(
              anthropicText,
              anthropicImage,
              fc.record({ type: fc.constant('document'), source: fc.constant({ type: 'text', data: 'doc' }) }),
              fc.record(
                {
                  type: fc.constant('tool_result'),
                  tool_use_id: id,
                  content: opt(fc.oneof(text, fc.array(fc.oneof(anthropicText, anthropicImage), { maxLength: 2 }))),
                  is_error: opt(fc.boolean()),
                },
                { requiredKeys: ['type', 'tool_use_id'] },
              ),
            ),
            { maxLength: 4 },
          ),
        ),
      }),
      fc.record({
        role: fc.constant('assistant'),
        content: fc.oneof(
          text,
          fc.array(
            fc.oneof(
              anthropicText,
              fc.record({ type: fc.constant('tool_use'), id, name, input: toolArguments }),
              fc.record({ type: fc.constant('thinking'), thinking: text, signature: fc.constant('sig') }),
              fc.record({ type: fc.constant('redacted_thinking'), data: fc.constant('xyz') }),
            ),
            { maxLength: 4 },
          ),
        ),
      }),
      fc.record({ role: fc.constant('system'), content: text }),
    ),
    { maxLength: 6 },
  ),
});

const providerOptions = opt(
  fc.oneof(
    fc.constant({ lousho: { pinned: true } }),
    fc.constant({ anthropic: { cacheControl: { type: 'ephemeral' } } }),
  ),
);
const modelImage = fc.oneof(
  fc.constant(PNG),
  fc.constant('https://x.test/d.png'),
  fc.constant(new URL('https://x.test/e.png')),
  fc.constant(new Uint8Array(Buffer.from(PNG, 'base64'))),
);
const outputV6 = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'error-text'), value: text }),
  fc.record({ type: fc.constantFrom('json', 'error-json'), value: fc.oneof(toolArguments, fc.string(), fc.integer()) }),
  fc.record({ type: fc.constant('execution-denied'), reason: opt(text) }, { requiredKeys: ['type'] }),
  fc.record({
    type: fc.constant('content'),
    value: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text }),
        fc.record({
          type: fc.constantFrom('media', 'image-data'),
          data: fc.constant(PNG),
          mediaType: fc.constant('image/png'),
        }),
        fc.record({ type: fc.constant('image-url'), url: fc.constant('https://x.test/f.png') }),
        fc.record({ type: fc.constant('file-id'), fileId: fc.constant('file_1') }),
      ),
      { maxLength: 3 },
    ),
  }),
);

const outputV5 = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'error-text'), value: text }),
  fc.record({ type: fc.constantFrom('json', 'error-json'), value: fc.oneof(toolArguments, fc.string(), fc.integer()) }),
  fc.record({
    type: fc.constant('content'),
    value: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text }),
        fc.record({ type: fc.constant('media'), data: fc.constant(PNG), mediaType: fc.constant('image/png') }),
      ),
      { maxLength: 3 },
    ),
  }),
);

/** AI SDK ModelMessages in the shapes of ai 5 or ai 6. */
export const modelMessages = (version: 5 | 6) => {
  const output = version === 5 ? outputV5 : outputV6;
  return fc.array(
    fc.oneof(
      fc.record({ role: fc.constant('system'), content: text, providerOptions }, { requiredKeys: ['role', 'content'] }),
      fc.record(
        {
          role: fc.constant('user'),
          content: fc.oneof(
            text,
            fc.array(
              fc.oneof(
                fc.record({ type: fc.constant('text'), text }),
                fc.record(
                  { type: fc.constant('image'), image: modelImage, mediaType: opt(fc.constant('image/png')) },
                  { requiredKeys: ['type', 'image'] },
                ),
                fc.record({
                  type: fc.constant('file'),
                  data: fc.constant(PNG),
                  mediaType: fc.constantFrom('image/png', 'application/pdf'),
                }),
              ),
              { maxLength: 3 },
            ),
          ),
          providerOptions,
        },
        { requiredKeys: ['role', 'content'] },
      ),
      fc.record(
        {
          role: fc.constant('assistant'),
          content: fc.oneof(
            text,
            fc.array(
              fc.oneof(
                fc.record({ type: fc.constant('text'), text }),
                fc.record({ type: fc.constant('reasoning'), text }),
                fc.record(
                  {
                    type: fc.constant('tool-call'),
                    toolCallId: id,
                    toolName: name,
                    input: toolArguments,
                    providerExecuted: opt(fc.boolean()),
                    providerOptions: opt(fc.constant({ google: { thoughtSignature: 'sig' } })),
                  },
                  { requiredKeys: ['type', 'toolCallId', 'toolName', 'input'] },
                ),
              ),
              { maxLength: 4 },
            ),
          ),
          providerOptions,
        },
        { requiredKeys: ['role', 'content'] },
      ),
      fc.record(
        {
          role: fc.constant('tool'),
          content: fc.array(
            fc.oneof(
              fc.record(
                { type: fc.constant('tool-result'), toolCallId: id, toolName: name, output, providerOptions },
                { requiredKeys: ['type', 'toolCallId', 'toolName', 'output'] },
              ),
              fc.record({
                type: fc.constant('tool-approval-response'),
                approvalId: fc.constant('a1'),
                approved: fc.boolean(),
              }),
            ),
            { maxLength: 3 },
          ),
          providerOptions,
        },
        { requiredKeys: ['role', 'content'] },
      ),
      fc.record({ role: fc.constant('robot'), content: text }),
    ),
    { maxLength: 8 },
  );
};

/** What our messages carry through the OpenAI Agents SDK's items. */
export const AGENTS_CARRIES: Carries = {
  images: 'url-strings',
  details: ['low', 'high', 'auto'],
  toolImages: 'same',
  toolErrors: false,
  assistantParts: false,
  laterSystem: true,
  pinned: false,
};

/**
 * OpenAI Agents SDK session items: transcripts written by toAgentsItems, with items our
 * Message cannot hold (reasoning, hosted tool calls) put between them and tool outputs
 * given as strings, { type: 'text' } objects or lists.
 */
export function agentsItems(written: fc.Arbitrary<unknown[]>) {
  const extra = fc.constantFrom(
    { type: 'reasoning', id: 'rs_1', content: [], providerData: { encrypted: 'x' } },
    { type: 'hosted_tool_call', name: 'web_search', status: 'completed', providerData: { q: 'x' } },
  );
  return fc
    .tuple(written, fc.array(fc.tuple(fc.nat(20), extra), { maxLength: 3 }), fc.nat(2))
    .map(([items, extras, form]) => {
      const out = items.map((item) => {
        const result = item as { type?: string; output?: unknown };
        if (result.type !== 'function_call_result' || typeof result.output !== 'string') return item;
        if (form === 1) return { ...result, output: { type: 'text', text: result.output } };
        if (form === 2) return { ...result, output: [{ type: 'input_text', text: result.output }] };
        return item;
      });
      for (const [at, item] of extras) out.splice(Math.min(at, out.length), 0, item);
      return out;
    });
}
