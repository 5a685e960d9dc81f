import { LoushoError } from '../errors/lousho-error.js';
import { registerSecret, registerSecretHeaders, registerSecretUrl } from '../errors/redact.js';

/** How to build the official `openai` client of a provider. */
export interface OpenAIClientSettings {
  /** The provider name named in errors, e.g. 'openai'. */
  name: string;
  /** The API's base URL; the client's default (api.openai.com) when absent. */
  baseURL?: string | undefined;
  /** The API key; read from `apiKeyEnv` when absent. */
  apiKey?: string | undefined;
  /** The environment variable that holds the key, named in errors. */
  apiKeyEnv?: string | undefined;
  /** A missing key is LOUSHO_API_KEY_MISSING before any request. */
  requireApiKey: boolean;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
}

/**
 * A loader of one `openai` client (an optional peer, imported on the first call). The key
 * is read on each call, so a key set or changed later is used from the next call on; the
 * key, the headers and the base URL's userinfo are registered for redaction. The client's
 * own retries are off: the provider's retry loop retries.
 */
export function openAIClientLoader<Client>(settings: OpenAIClientSettings): () => Promise<Client> {
  const { name } = settings;
  let client: Promise<Client> | undefined;
  let clientKey: string | undefined;
  return () => {
    const apiKey = settings.apiKey ?? (settings.apiKeyEnv === undefined ? undefined : process.env[settings.apiKeyEnv]);
    if (settings.requireApiKey && (apiKey === undefined || apiKey === '')) {
      const variable = settings.apiKeyEnv ?? 'the API key variable';
      return Promise.reject(
        new LoushoError(
          'LOUSHO_API_KEY_MISSING',
          `The ${name} provider needs an API key: set ${variable}, or pass apiKey when you create the provider.`,
          { details: { provider: name, variable } },
        ),
      );
    }
    registerSecret(apiKey);
    registerSecretHeaders(settings.headers);
    registerSecretUrl(settings.baseURL);
    if (clientKey !== apiKey) client = undefined;
    clientKey = apiKey;
    client ??= import('openai').then(
      (module) => {
        const OpenAI = module.default;
        return new OpenAI({
          apiKey: apiKey || 'not-needed',
          ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
          maxRetries: 0,
          ...(settings.headers === undefined ? {} : { defaultHeaders: settings.headers }),
        }) as unknown as Client;
      },
      (cause: unknown) => {
        client = undefined;
        throw new LoushoError(
          'LOUSHO_DEPENDENCY_MISSING',
          `The ${name} provider needs the openai package: npm install openai`,
          { cause },
        );
      },
    );
    return client;
  };
}
