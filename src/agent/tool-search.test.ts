import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest } from '../contracts/model-request.js';
import { type Tool, tool } from '../executor/tool.js';
import { ToolRegistry } from '../executor/tool-registry.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { tokenProfile, toolDefinitionTokens } from '../models/estimate-tokens.js';
import { registerModel, resetModelRegistry } from '../models/registry.js';
import { rejection, thrown } from '../test-support/errors.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { createAgent } from './create-agent.js';
import { checkToolSearch, rankTools, SEARCH_TOOL_NAME } from './tool-search.js';

/** A mockModel script that records, for each request, the tool names and a copy of the messages. */
function recording(answer: (request: ModelRequest, index: number) => string | MockReply) {
  const tools: string[][] = [];
  const messages: Message[][] = [];
  const step = (request: ModelRequest, index: number) => {
    tools.push((request.tools ?? []).map((t) => t.name));
    messages.push([...request.messages]);
    return answer(request, index);
  };
  return { tools, messages, step };
}

const weatherCalls: unknown[] = [];
const getWeather = tool({
  name: 'get_weather',
  description: 'Get the weather forecast for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => {
    weatherCalls.push(args);
    return `Sunny in ${String(args.city)}`;
  },
});

const convert = tool({
  name: 'convert_currency',
  description: 'Convert an amount between currencies',
  parameters: { type: 'object', properties: { amount: { type: 'number' } } },
  execute: () => '1.08',
});

const fillers: Tool[] = Array.from({ length: 30 }, (_, i) =>
  tool({
    name: `crm_action_${i}`,
    description: `Performs customer relationship management action number ${i} on the account records of the company`,
    parameters: {
      type: 'object',
      properties: { account: { type: 'string', description: 'The account id' }, note: { type: 'string' } },
      required: ['account'],
    },
    execute: () => `action ${i} done`,
  }),
);

const many: Tool[] = [...fillers, getWeather, convert];

/** Tokens of the definitions of `tools` for `model`, as tool search counts them. */
const definitionTokens = (tools: Tool[], model: string) =>
  toolDefinitionTokens(new ToolRegistry(tools).definitions(), tokenProfile(model));

/** A window in which `many` takes far more than the default 10% share. */
const smallWindow = () => Math.floor(definitionTokens(many, 'mock-model') * 3);

afterEach(() => {
  resetModelRegistry();
  vi.restoreAllMocks();
  weatherCalls.length = 0;
});

describe('tool search', () => {
  it('sends only search_tools first, then the tools found, which the model can call', async () => {
    const { tools, messages, step } = recording((_r, i) => {
      if (i === 0)
        return { toolCalls: [{ id: 's1', name: SEARCH_TOOL_NAME, arguments: { query: 'weather forecast' } }] };
      if (i === 1) return { toolCalls: [{ id: 'w1', name: 'get_weather', arguments: { city: 'Oslo' } }] };
      return 'It is sunny in Oslo.';
    });
    const agent = createAgent({ provider: mockModel(step), tools: many, toolSearch: { contextWindow: smallWindow() } });
    const result = await agent.send('Weather in Oslo?');
    expect(tools[0]).toEqual([SEARCH_TOOL_NAME]);
    expect(tools[1]).toEqual(['get_weather', SEARCH_TOOL_NAME]);
    expect(tools[2]).toEqual(['get_weather', SEARCH_TOOL_NAME]);
    const searchResult = messages[1]?.at(-1);
    expect(searchResult).toMatchObject({ role: 'tool', toolCallId: 's1', toolName: SEARCH_TOOL_NAME });
    expect(searchResult?.role === 'tool' && searchResult.isError).toBeFalsy();
    expect(contentText(searchResult?.content ?? '')).toContain('- get_weather: Get the weather forecast for a city');
    expect(weatherCalls).toEqual([{ city: 'Oslo' }]);
    expect(messages[2]?.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'w1', content: 'Sunny in Oslo' });
    expect(result.text).toBe('It is sunny in Oslo.');
  });

  it('sends the definition of search_tools with a required query', async () => {
    const model = mockModel(['ok']);
    await createAgent({ provider: model, tools: many, toolSearch: { contextWindow: smallWindow() } }).send('hi');
    expect(model.calls[0]?.tools).toEqual([
      expect.objectContaining({
        name: SEARCH_TOOL_NAME,
        description: expect.stringContaining('Search the available tools'),
        parameters: expect.objectContaining({ required: ['query'] }),
      }),
    ]);
  });

  it('finds at most maxResults tools per search', async () => {
    const { tools, messages, step } = recording((_r, i) =>
      i === 0
        ? { toolCalls: [{ id: 's', name: SEARCH_TOOL_NAME, arguments: { query: 'customer account records' } }] }
        : 'ok',
    );
    const agent = createAgent({
      provider: mockModel(step),
      tools: many,
      toolSearch: { contextWindow: smallWindow(), maxResults: 2 },
    });
    await agent.send('update the account');
    expect(tools[1]).toHaveLength(3);
    expect(tools[1]).toContain(SEARCH_TOOL_NAME);
    expect(tools[1]?.filter((n) => n.startsWith('crm_action_'))).toHaveLength(2);
    const text = contentText(messages[1]?.at(-1)?.content ?? '');
    expect(text.match(/^- crm_action_/gm)).toHaveLength(2);
  });

  it('tells the model when nothing matches and keeps sending only search_tools', async () => {
    const { tools, messages, step } = recording((_r, i) =>
      i === 0
        ? { toolCalls: [{ id: 's', name: SEARCH_TOOL_NAME, arguments: { query: 'quantum teleportation' } }] }
        : 'ok',
    );
    await createAgent({ provider: mockModel(step), tools: many, toolSearch: { contextWindow: smallWindow() } }).send(
      'go',
    );
    expect(contentText(messages[1]?.at(-1)?.content ?? '')).toContain('No tool matches "quantum teleportation"');
    expect(tools[1]).toEqual([SEARCH_TOOL_NAME]);
  });

  it('forgets the tools found when a new run starts', async () => {
    const { tools, step } = recording((_r, i) =>
      i === 0 ? { toolCalls: [{ id: 's', name: SEARCH_TOOL_NAME, arguments: { query: 'weather' } }] } : 'ok',
    );
    const agent = createAgent({ provider: mockModel(step), tools: many, toolSearch: { contextWindow: smallWindow() } });
    await agent.send('one');
    await agent.send('two');
    expect(tools).toEqual([[SEARCH_TOOL_NAME], ['get_weather', SEARCH_TOOL_NAME], [SEARCH_TOOL_NAME]]);
  });

  it('sends every definition (and no search tool) when the tools fit in the share', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = mockModel(['ok'], { modelId: 'gpt-4o' });
    await createAgent({ provider: model, tools: [getWeather, convert], toolSearch: true }).send('hi');
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual(['get_weather', 'convert_currency']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('honours thresholdPercent', async () => {
    const tokens = definitionTokens(many, 'mock-model');
    const window = tokens * 4;
    const send = async (thresholdPercent: number) => {
      const model = mockModel(['ok']);
      await createAgent({ provider: model, tools: many, toolSearch: { contextWindow: window, thresholdPercent } }).send(
        'hi',
      );
      return model.calls[0]?.tools?.length;
    };
    expect(await send(0.1)).toBe(1);
    expect(await send(0.2)).toBe(1);
    expect(await send(0.3)).toBe(many.length);
  });
});

describe('tool search: the context window', () => {
  it('uses toolSearch.contextWindow over the registry', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = mockModel(['ok'], { modelId: 'gpt-4o' });
    await createAgent({ provider: model, tools: many, toolSearch: { contextWindow: smallWindow() } }).send('hi');
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual([SEARCH_TOOL_NAME]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads the registry for a known model (gpt-4o: 128,000)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = mockModel(['ok'], { modelId: 'gpt-4o' });
    await createAgent({ provider: model, tools: many, toolSearch: true }).send('hi');
    expect(model.calls[0]?.tools).toHaveLength(many.length);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads a window set with registerModel()', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    registerModel({ id: 'tiny-local', provider: 'mock', contextWindow: smallWindow() });
    const model = mockModel(['ok'], { modelId: 'tiny-local' });
    await createAgent({ provider: model, tools: many, toolSearch: true }).send('hi');
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual([SEARCH_TOOL_NAME]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reads the window the provider reports when the registry does not know the model', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = mockModel(['ok'], { modelId: 'local-thing', contextWindow: smallWindow() });
    await createAgent({ provider: model, tools: many, toolSearch: true }).send('hi');
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual([SEARCH_TOOL_NAME]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('assumes 128,000 tokens for an unknown model', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tokens = definitionTokens(many, 'mock-model');
    const send = async (thresholdPercent: number) => {
      const model = mockModel(['ok']);
      await createAgent({ provider: model, tools: many, toolSearch: { thresholdPercent } }).send('hi');
      return model.calls[0]?.tools?.length;
    };
    expect(await send((tokens + 1) / 128_000)).toBe(many.length);
    expect(await send((tokens - 1) / 128_000)).toBe(1);
  });

  it('warns once per agent, naming the model and toolSearch.contextWindow', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const agent = createAgent({ provider: mockModel(() => 'ok'), tools: many, toolSearch: true });
    await agent.send('one');
    await agent.send('two');
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toContain('"mock-model"');
    expect(message).toContain('toolSearch.contextWindow');
    expect(message).toContain('128,000');
  });

  it('warns separately from the compaction hook, each naming its own setting', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await createAgent({ provider: mockModel(['ok']), tools: many, toolSearch: true, compaction: true }).send('hi');
    const messages = warn.mock.calls.map((c) => String(c[0]));
    expect(messages).toHaveLength(2);
    expect(messages.some((m) => m.includes('toolSearch.contextWindow'))).toBe(true);
    expect(messages.some((m) => m.includes('compaction.contextWindow'))).toBe(true);
  });
});

describe('tool search: configuration', () => {
  it.each([
    ['a string', 'yes'],
    ['null', null],
    ['a number', 1],
    ['contextWindow 0', { contextWindow: 0 }],
    ['a fractional contextWindow', { contextWindow: 1000.5 }],
    ['a string contextWindow', { contextWindow: '8000' }],
    ['thresholdPercent 0', { thresholdPercent: 0 }],
    ['thresholdPercent above 1', { thresholdPercent: 1.5 }],
    ['maxResults 0', { maxResults: 0 }],
    ['a fractional maxResults', { maxResults: 2.5 }],
  ])('refuses %s with LOUSHO_CONFIG_INVALID', (_label, toolSearch) => {
    const error = thrown(() => createAgent({ provider: mockModel([]), toolSearch: toolSearch as never }));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain('toolSearch');
  });

  it('refuses an unknown toolSearch option (a typo would silently fall back to the defaults)', () => {
    const error = thrown(() => createAgent({ provider: mockModel([]), toolSearch: { contextWindows: 8000 } as never }));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain('contextWindows');
  });

  it('accepts true, false and valid settings', () => {
    expect(checkToolSearch(undefined)).toBeUndefined();
    expect(checkToolSearch(false)).toBeUndefined();
    expect(checkToolSearch(true)).toEqual({});
    const options = { contextWindow: 8192, thresholdPercent: 1, maxResults: 3 };
    expect(checkToolSearch(options)).toEqual(options);
  });

  it('refuses a tool of the agent named search_tools when tool search is on', async () => {
    const clash = tool({ name: SEARCH_TOOL_NAME, parameters: { type: 'object' }, execute: () => 'mine' });
    const attempt = async () =>
      createAgent({ provider: mockModel(['ok']), tools: [clash], toolSearch: true }).send('hi');
    const error = await rejection(attempt());
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain(SEARCH_TOOL_NAME);
  });
});

describe('rankTools()', () => {
  const defs = new ToolRegistry(many).definitions();

  it('ranks name matches above description matches and leaves out tools that match nothing', () => {
    const ranked = rankTools('convert weather', defs).map((d) => d.name);
    expect(ranked).toEqual(expect.arrayContaining(['get_weather', 'convert_currency']));
    expect(ranked).toHaveLength(2);
    expect(rankTools('forecast', defs).map((d) => d.name)).toEqual(['get_weather']);
    expect(rankTools('weather', [...defs].reverse())[0]?.name).toBe('get_weather');
  });

  it('ignores case, punctuation and one-letter words', () => {
    expect(rankTools('  WEATHER!! a ', defs).map((d) => d.name)).toEqual(['get_weather']);
    expect(rankTools('a b c', defs)).toEqual([]);
    expect(rankTools('', defs)).toEqual([]);
  });
});
