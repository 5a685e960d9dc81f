/**
 * Fits the estimator's framing constants to the corpus's provider counts (see
 * bench/framing-fit.ts for the model) and shows what they imply for the library:
 * MESSAGE_FRAMING_TOKENS (per plain message), the sum of the call and result framing (two
 * tool messages), ASSISTANT_TEXT_FRAMING_TOKENS, and the request overhead of the model
 * (the intercept less the request framing and the one tool's definition).
 * Run: LOUSHO_CORPUS=../shared/corpus/trajectories-raw npx tsx scripts/fit-framing.ts
 */
import { BASH_TOOL, readCorpus } from '../bench/corpus.js';
import { callFeatures, fitFraming } from '../bench/framing-fit.js';
import {
  ASSISTANT_TEXT_FRAMING_TOKENS,
  MESSAGE_FRAMING_TOKENS,
  REQUEST_FRAMING_TOKENS,
  TOOL_CALL_FRAMING_TOKENS,
  TOOL_RESULT_FRAMING_TOKENS,
  tokenProfile,
  toolDefinitionTokens,
} from '../src/models/estimate-tokens.js';

const MODEL = 'gpt-5-mini';
const corpus = readCorpus();
if (corpus.length === 0) throw new Error('The corpus was not found: set LOUSHO_CORPUS.');
const fit = fitFraming(corpus.flatMap(callFeatures));
const tools = toolDefinitionTokens([BASH_TOOL], tokenProfile(MODEL));
const library = {
  perPlainMessage: MESSAGE_FRAMING_TOKENS,
  perToolMessage: MESSAGE_FRAMING_TOKENS + (TOOL_CALL_FRAMING_TOKENS + TOOL_RESULT_FRAMING_TOKENS) / 2,
  perAssistantTextBesideCalls: ASSISTANT_TEXT_FRAMING_TOKENS,
  requestOverhead: tokenProfile(MODEL).requestOverheadTokens ?? 0,
};
const f = (n: number) => n.toFixed(2);
console.log(`${fit.calls} calls of ${fit.trajectories} trajectories (${MODEL}, one tool):`);
console.log(`  per plain (system or user) message: ${f(fit.perPlainMessage)} (library ${library.perPlainMessage})`);
console.log(
  `  per tool message (a call or a result): ${f(fit.perToolMessage)} (library ${library.perToolMessage}: ` +
    `MESSAGE + (TOOL_CALL + TOOL_RESULT) / 2)`,
);
console.log(
  `  per assistant text beside tool calls: ${f(fit.perAssistantTextBesideCalls)} (library ${library.perAssistantTextBesideCalls})`,
);
console.log(
  `  per request: ${f(fit.intercept)} = request framing ${REQUEST_FRAMING_TOKENS} + bash tool definition ${tools} + ` +
    `request overhead ${f(fit.intercept - REQUEST_FRAMING_TOKENS - tools)} (library ${library.requestOverhead} for ${MODEL})`,
);
