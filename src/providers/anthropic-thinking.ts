import type { ReasoningOptions } from '../contracts/model-request.js';
import { configError } from '../errors/lousho-error.js';
import type { AnthropicRequestBody } from './anthropic-api-types.js';

/** An `output_config.effort` level of the Messages API. */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** How a Claude model thinks, as Anthropic documents it. */
interface ClaudeThinking {
  /**
   * 'adaptive': `thinking: { type: 'adaptive' }` only (`type: 'enabled'` with budget_tokens is a
   * 400); 'either': adaptive, or the deprecated budget; 'budget': budget_tokens only.
   */
  form: 'adaptive' | 'either' | 'budget';
  /** The effort levels `output_config.effort` takes; none for a model without the parameter. */
  efforts: readonly AnthropicEffort[];
  /** Thinking cannot be turned off (`type: 'disabled'` is a 400). */
  alwaysOn: boolean;
  /** Thinking between tool calls needs the interleaved-thinking beta header (Claude 4 models before 4.6). */
  interleavedBeta: boolean;
}

const ALL: readonly AnthropicEffort[] = ['low', 'medium', 'high', 'xhigh', 'max'];
const BASIC: readonly AnthropicEffort[] = ['low', 'medium', 'high'];

/*
 * From Anthropic's docs: adaptive thinking (platform.claude.com/docs/en/build-with-claude/adaptive-thinking
 * and docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking: "Claude
 * Mythos 5, Claude Fable 5, Claude Opus 4.7, and Claude Mythos Preview only support adaptive
 * thinking ... enabled ... and disabled ... will return a 400 error"; enabled and budget_tokens
 * deprecated on Opus 4.6 and Sonnet 4.6; older models need enabled with budget_tokens), the
 * models overview (Fable 5.1 and Opus 5.5 "Adaptive (always on)", Opus 5 and Sonnet 5
 * "Adaptive"; the Claude 5 models refuse the budget form, as docs.memberjunction.org's
 * UsesAdaptiveThinking records from a 400 of claude-sonnet-5) and effort
 * (platform.claude.com/docs/en/build-with-claude/effort: max on Opus 4.6 and Sonnet 4.6 and
 * later, xhigh on Opus 4.7 and later and Sonnet 5, low to high on Opus 4.5). The
 * interleaved-thinking beta (interleaved-thinking-2025-05-14) is for the Claude 4 models that
 * think with a budget; adaptive thinking interleaves by itself.
 */
const MODELS: readonly [RegExp, ClaudeThinking][] = [
  [
    /claude-(fable|mythos)|claude-opus-(4-7|5-5)/,
    { form: 'adaptive', efforts: ALL, alwaysOn: true, interleavedBeta: false },
  ],
  [
    /claude-(opus|sonnet|haiku)-(4-[89]|[5-9])/,
    { form: 'adaptive', efforts: ALL, alwaysOn: false, interleavedBeta: false },
  ],
  [
    /claude-(opus|sonnet)-4-6/,
    { form: 'either', efforts: ['low', 'medium', 'high', 'max'], alwaysOn: false, interleavedBeta: false },
  ],
  [/claude-opus-4-5/, { form: 'budget', efforts: BASIC, alwaysOn: false, interleavedBeta: true }],
  [/claude-(opus-4|sonnet-4|haiku-4-5)/, { form: 'budget', efforts: [], alwaysOn: false, interleavedBeta: true }],
];
const OTHER: ClaudeThinking = { form: 'budget', efforts: [], alwaysOn: false, interleavedBeta: false };

/** How `modelId` thinks; a model this table does not name is treated as before adaptive thinking (budget only). */
export function claudeThinking(modelId: string): ClaudeThinking {
  const id = modelId.toLowerCase().replace(/\./g, '-');
  return MODELS.find(([pattern]) => pattern.test(id))?.[1] ?? OTHER;
}

/** The beta that lets a Claude 4 model think between tool calls with a budget. */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/** Our effort as the level this model takes: minimal as low, xhigh as the highest the model has. */
function effortLevel(effort: NonNullable<ReasoningOptions['effort']>, model: ClaudeThinking): AnthropicEffort {
  if (effort === 'minimal' || effort === 'none') return 'low';
  if (effort !== 'xhigh') return effort;
  return model.efforts.includes('xhigh') ? 'xhigh' : model.efforts.includes('max') ? 'max' : 'high';
}

/** What a request's reasoning options add to the body, for this model; `max_tokens` is the answer's room. */
export type ThinkingFields = Pick<AnthropicRequestBody, 'max_tokens' | 'thinking'> & {
  effort?: AnthropicEffort;
};

/**
 * The thinking fields of a request: `effort` as adaptive thinking with `output_config.effort`
 * on the models that take it (Opus 4.6, Sonnet 4.6 and later), as the effort alone on Opus
 * 4.5; `budgetTokens` as `thinking: { type: 'enabled', budget_tokens }` where the model still
 * takes it (given both, a model that takes adaptive thinking gets the effort). A request a
 * model documents as a 400 is refused with LOUSHO_CONFIG_INVALID, saying what to use instead:
 * budgetTokens alone on a model that only thinks adaptively, effort 'none' on one that
 * always thinks.
 */
export function thinkingFields(
  reasoning: ReasoningOptions | undefined,
  modelId: string,
  maxTokens: number | undefined,
  defaultMaxTokens: number,
): ThinkingFields {
  const model = claudeThinking(modelId);
  const effort = reasoning?.effort;
  const budget = reasoning?.budgetTokens;
  const answer = { max_tokens: maxTokens ?? defaultMaxTokens };
  if (effort !== undefined && model.form !== 'budget') {
    if (effort === 'none') {
      if (model.alwaysOn)
        throw configError(
          `${modelId} always thinks: Anthropic refuses thinking.type 'disabled' for it with a 400. Use reasoning: { effort: 'low' } for the least thinking.`,
          { option: 'reasoning.effort' },
        );
      return { ...answer, thinking: { type: 'disabled' } };
    }
    return { ...answer, thinking: { type: 'adaptive' }, effort: effortLevel(effort, model) };
  }
  if (budget === undefined) {
    if (effort === undefined || model.efforts.length === 0 || effort === 'none') return answer;
    return { ...answer, effort: effortLevel(effort, model) };
  }
  if (model.form === 'adaptive')
    throw configError(
      `${modelId} takes only adaptive thinking: Anthropic refuses thinking.type 'enabled' with budget_tokens for it with a 400. Use reasoning: { effort: 'low' | 'medium' | 'high' | 'xhigh' } instead of budgetTokens.`,
      { option: 'reasoning.budgetTokens' },
    );
  if (maxTokens !== undefined && maxTokens <= budget) {
    throw configError(
      `maxOutputTokens (${maxTokens}) must be above reasoning.budgetTokens (${budget}): Anthropic counts the thinking inside max_tokens. Raise maxOutputTokens or lower the budget.`,
      { option: 'reasoning.budgetTokens' },
    );
  }
  // Without a limit of the caller's, the thinking budget comes on top of the default answer length.
  return {
    max_tokens: maxTokens ?? defaultMaxTokens + budget,
    thinking: { type: 'enabled', budget_tokens: budget },
    ...(effort === undefined || model.efforts.length === 0 || effort === 'none'
      ? {}
      : { effort: effortLevel(effort, model) }),
  };
}

/** The betas a body's thinking needs: interleaved thinking where a budget meets tools on a Claude 4 model. */
export function thinkingBetas(body: AnthropicRequestBody): string[] {
  const interleaved =
    body.thinking?.type === 'enabled' && (body.tools?.length ?? 0) > 0 && claudeThinking(body.model).interleavedBeta;
  return interleaved ? [INTERLEAVED_THINKING_BETA] : [];
}
