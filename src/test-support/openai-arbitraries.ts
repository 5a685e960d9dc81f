import fc from 'fast-check';
import { argumentsText, id, name, opt, PNG, text } from './native-arbitraries.js';

/* Random OpenAI Chat Completions and Responses transcripts, as real logs hold them (see native-arbitraries.ts). */

/** OpenAI Chat Completions messages. */
export const openAIChatMessages = fc.array(
  fc.oneof(
    fc.record(
      {
        role: fc.constantFrom('system', 'developer'),
        content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 2 })),
        name: opt(name),
      },
      { requiredKeys: ['role', 'content'] },
    ),
    fc.record(
      {
        role: fc.constant('user'),
        content: fc.oneof(
          text,
          fc.array(
            fc.oneof(
              fc.record({ type: fc.constant('text'), text }),
              fc.record({
                type: fc.constant('image_url'),
                image_url: fc.record(
                  {
                    url: fc.constantFrom('https://x.test/a.png', `data:image/png;base64,${PNG}`),
                    detail: opt(fc.constantFrom('low', 'high', 'auto')),
                  },
                  { requiredKeys: ['url'] },
                ),
              }),
            ),
            { maxLength: 3 },
          ),
        ),
        name: opt(name),
      },
      { requiredKeys: ['role', 'content'] },
    ),
    fc.record(
      {
        role: fc.constant('assistant'),
        content: fc.oneof(
          fc.constant(null),
          text,
          fc.array(
            fc.oneof(
              fc.record({ type: fc.constant('text'), text }),
              fc.record({ type: fc.constant('refusal'), refusal: text }),
            ),
            { maxLength: 2 },
          ),
        ),
        tool_calls: opt(
          fc.uniqueArray(
            fc.record({ id, type: fc.constant('function'), function: fc.record({ name, arguments: argumentsText }) }),
            { maxLength: 3, selector: (call) => call.id },
          ),
        ),
        function_call: fc.constant(null),
        extra: opt(fc.record({ cost: fc.nat() })),
      },
      { requiredKeys: ['role', 'content'] },
    ),
    fc.record(
      {
        role: fc.constant('tool'),
        tool_call_id: id,
        content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 2 })),
        name: opt(name),
      },
      { requiredKeys: ['role', 'tool_call_id', 'content'] },
    ),
    fc.record({ role: fc.constantFrom('exit', 'function', 'robot'), content: text }),
    fc.record({ role: fc.constant('tool'), content: text }),
  ),
  { maxLength: 8 },
);

/** Gives function_call items distinct call ids (as the API does), keeping their outputs' ids as they were drawn. */
function uniqueCallIds<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const call = item as { type?: unknown; call_id?: string };
    if (call.type !== 'function_call' || call.call_id === undefined) return item;
    let id = call.call_id;
    while (seen.has(id)) id = `${id}'`;
    seen.add(id);
    return { ...item, call_id: id };
  });
}

/** OpenAI Responses API input items. */
export const openAIResponsesItems = fc
  .array(
    fc.oneof(
      fc.record(
        {
          type: opt(fc.constant('message')),
          role: fc.constantFrom('user', 'system', 'developer'),
          content: fc.oneof(
            text,
            fc.array(
              fc.oneof(
                fc.record({ type: fc.constant('input_text'), text }),
                fc.record({
                  type: fc.constant('input_image'),
                  image_url: fc.constantFrom('https://x.test/a.png', `data:image/png;base64,${PNG}`),
                  detail: fc.constantFrom('low', 'high', 'auto'),
                }),
                fc.record({ type: fc.constant('input_file'), file_id: fc.constant('file_1') }),
              ),
              { maxLength: 3 },
            ),
          ),
        },
        { requiredKeys: ['role', 'content'] },
      ),
      fc.record(
        {
          type: fc.constant('message'),
          role: fc.constant('assistant'),
          id: opt(fc.constantFrom('msg_1', 'msg_2')),
          status: opt(fc.constant('completed')),
          phase: opt(fc.constantFrom('commentary', 'final_answer')),
          content: fc.oneof(
            text,
            fc.array(fc.record({ type: fc.constant('output_text'), text, annotations: fc.constant([]) }), {
              maxLength: 2,
            }),
          ),
        },
        { requiredKeys: ['type', 'role', 'content'] },
      ),
      fc.record(
        {
          type: fc.constant('function_call'),
          call_id: id,
          name,
          arguments: argumentsText,
          id: opt(fc.constant('fc_1')),
          status: opt(fc.constant('completed')),
        },
        { requiredKeys: ['type', 'call_id', 'name', 'arguments'] },
      ),
      fc.record({
        type: fc.constant('function_call_output'),
        call_id: id,
        output: fc.oneof(
          text,
          fc.array(
            fc.oneof(
              fc.record({ type: fc.constant('input_text'), text }),
              fc.record({
                type: fc.constant('input_image'),
                image_url: fc.constant('https://x.test/b.png'),
                detail: fc.constant('auto'),
              }),
            ),
            { maxLength: 2 },
          ),
        ),
      }),
      fc.record({
        type: fc.constant('reasoning'),
        id: fc.constant('rs_1'),
        summary: fc.constant([]),
        encrypted_content: fc.constant('gAAAA'),
      }),
      fc.record({ type: fc.constant('web_search_call'), id: fc.constant('ws_1'), status: fc.constant('completed') }),
      fc.record({ content: text }),
    ),
    { maxLength: 8 },
  )
  .map(uniqueCallIds);
