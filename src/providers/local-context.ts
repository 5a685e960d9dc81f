/**
 * Reads the context window a local server runs a model with, so that compaction fires
 * before the server rejects (or silently truncates) the request.
 */

const TIMEOUT_MS = 2_000;

async function getJson(url: string, init: RequestInit = {}): Promise<unknown> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

/** OLLAMA_HOST as a URL: adds http:// and the default port, and turns 0.0.0.0 into 127.0.0.1. */
export function ollamaOrigin(host = process.env.OLLAMA_HOST): string {
  let value = (host ?? '').trim() || 'http://127.0.0.1:11434';
  const schemeGiven = /^https?:\/\//i.test(value);
  if (!schemeGiven) value = `http://${value}`;
  const url = new URL(value);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  // Like Ollama's own clients: a bare host gets 11434; a URL with a scheme keeps that scheme's port.
  if (url.port === '' && !schemeGiven) url.port = '11434';
  return url.origin;
}

const withTag = (model: string) => (model.includes(':') ? model : `${model}:latest`);

/**
 * Ollama: the context length of the loaded model from /api/ps when the server reports
 * it, else num_ctx from the model's parameters (/api/show), else the model's own context
 * length (model_info "<arch>.context_length").
 */
export async function ollamaContextWindow(origin: string, model: string): Promise<number | undefined> {
  const ps = (await getJson(`${origin}/api/ps`)) as
    | { models?: { name?: string; model?: string; context_length?: unknown }[] }
    | undefined;
  const loaded = ps?.models?.find((m) => m.name === withTag(model) || m.model === withTag(model) || m.name === model);
  const running = positive(loaded?.context_length);
  if (running !== undefined) return running;
  const show = (await getJson(`${origin}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model }),
  })) as { parameters?: unknown; model_info?: Record<string, unknown> } | undefined;
  if (show === undefined) return undefined;
  const numCtx = typeof show.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters) : null;
  if (numCtx !== null) return Number(numCtx[1]);
  for (const [key, value] of Object.entries(show.model_info ?? {})) {
    if (key.endsWith('.context_length') && positive(value) !== undefined) return value as number;
  }
  return undefined;
}

/** LM Studio: loaded_context_length from GET /api/v0/models/<id>, when the model is loaded. */
export async function lmStudioContextWindow(origin: string, model: string): Promise<number | undefined> {
  const info = (await getJson(`${origin}/api/v0/models/${encodeURIComponent(model)}`)) as
    | { loaded_context_length?: unknown }
    | undefined;
  return positive(info?.loaded_context_length);
}
