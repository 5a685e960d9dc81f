import { LoushoError } from './lousho-error.js';

/*
 * API keys never leave the package in an error. Every key a provider is given or reads
 * from the environment is registered here where it is read; provider text (error bodies,
 * client messages, the client's own errors) goes through redactText() before it enters a
 * LoushoError, and a client's error is kept as cause only as a redacted copy. A provider
 * that echoes the key back ("Incorrect API key provided: sk-proj-...") is shown as
 * "sk-...abcd": enough to tell which key it was, not enough to use it.
 */

/** Keys shorter than this are not registered: redacting every "x" or "test" would garble messages, and such a key guards nothing. */
const MIN_SECRET_LENGTH = 8;

/** The variables of the vendors' keys, read at each redaction: AI SDK providers read them without telling the adapter. */
const KEY_VARIABLES = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY'] as const;

/** Key-shaped text found even when the key was never registered (an AI SDK model given its key directly). */
const KEY_SHAPES: readonly RegExp[] = [
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-v1-).
  /\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,}/g,
  // Any bearer token, e.g. an Authorization header a server echoes back.
  /(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}/g,
];

const secrets = new Set<string>();

/**
 * Headers (and environment variables) whose values are credentials: Authorization, api-key,
 * x-api-key, x-auth-token, Cookie, GITHUB_TOKEN, CLIENT_SECRET, DB_PASSWORD, ...
 */
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|password|passwd|credential|cookie/i;

/**
 * Adds a key to the secrets redacted from provider text. Call it where a key is read
 * (an option, an environment variable). Values under 8 characters are ignored.
 */
export function registerSecret(value: string | undefined): void {
  const secret = value?.trim();
  if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
}

/** Registers the values of credential headers (`Authorization: Bearer <key>` registers the key). */
export function registerSecretHeaders(headers: Readonly<Record<string, string>> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (CREDENTIAL_HEADER.test(name)) registerSecret(value.replace(/^(Bearer|Basic|Token)\s+/i, ''));
  }
}

/**
 * Registers the credentials a URL carries: the user and password of its userinfo
 * (`https://user:key@host`) and the values of its query (`?api_key=...`). Not a URL: nothing.
 */
export function registerSecretUrl(url: string | undefined): void {
  if (url === undefined || !URL.canParse(url)) return;
  const parsed = new URL(url);
  for (const part of [parsed.username, parsed.password]) registerSecret(safeDecode(part));
  for (const value of parsed.searchParams.values()) registerSecret(value);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Shortest encoded run that is replaced: shorter runs of base64 would match by chance. */
const MIN_ENCODED_LENGTH = 12;

/** A text's percent-encoded forms: encodeURIComponent, its escapes in lower case, and form encoding. */
function percentForms(text: string): string[] {
  const uri = encodeURIComponent(text);
  // Percent escapes are case-insensitive: a server may echo %2f for %2F.
  return [uri, uri.replaceAll('%20', '+'), uri.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase())];
}

/**
 * The forms a secret may be echoed in besides itself: percent-encoded once and twice (each
 * with lower-case escapes and form encoding), hex in lower and upper case, JSON-escaped (with
 * '/' escaped too), reversed, and base64 and base64url at each of the three alignments it can
 * have inside a longer base64 text (a Basic `user:key` header, a JSON blob), each cut to the
 * characters that depend on the secret alone.
 */
export function encodedForms(secret: string): string[] {
  const forms = new Set<string>();
  for (const once of percentForms(secret)) {
    forms.add(once);
    for (const twice of percentForms(once)) forms.add(twice);
  }
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replaceAll('/', '\\/'));
  forms.add([...secret].reverse().join(''));
  const bytes = Buffer.from(secret, 'utf8');
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad, 0x20), bytes]).toString('base64');
    const end = Math.floor((pad + bytes.length) / 3) * 4;
    const core = b64.slice(pad === 0 ? 0 : 4, end);
    if (core.length < MIN_ENCODED_LENGTH) continue;
    forms.add(core);
    forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  forms.delete(secret);
  return [...forms].filter((f) => f.length >= MIN_ENCODED_LENGTH);
}

const formsOf = new Map<string, string[]>();

/**
 * A secret as it may be shown: its vendor prefix and last 4 characters ("sk-...abcd"),
 * each only while they stay under half of it; "..." alone for a short one.
 */
export function redactSecret(secret: string): string {
  const prefix = /^[A-Za-z]{1,10}[-_]/.exec(secret)?.[0] ?? '';
  const tail = secret.length >= 16 ? secret.slice(-4) : '';
  return prefix.length + tail.length <= secret.length / 2 ? `${prefix}...${tail}` : `...${tail}`;
}

function knownSecrets(): string[] {
  const all = new Set(secrets);
  for (const name of KEY_VARIABLES) {
    const value = process.env[name]?.trim();
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) all.add(value);
  }
  // Longest first, so a key that contains another is replaced whole.
  return [...all].sort((a, b) => b.length - a.length);
}

function redactWith(text: string, known: readonly string[]): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(redactSecret(secret));
    let forms = formsOf.get(secret);
    if (forms === undefined) {
      forms = encodedForms(secret);
      formsOf.set(secret, forms);
    }
    for (const form of forms) if (out.includes(form)) out = out.split(form).join('[redacted]');
  }
  for (const shape of KEY_SHAPES) out = out.replace(shape, (key) => redactSecret(key));
  return out;
}

/** The text with every registered key, and every key-shaped string, replaced by its redacted form. */
export function redactText(text: string): string {
  return redactWith(text, knownSecrets());
}

/** One redaction: the secrets known when it started, and whether anything had to change. */
interface Pass {
  known: readonly string[];
  changed: boolean;
}

const MAX_DEPTH = 8;

function textOf(text: string, pass: Pass): string {
  const out = redactWith(text, pass.known);
  if (out !== text) pass.changed = true;
  return out;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function copyOf(value: unknown, depth: number, pass: Pass): unknown {
  if (typeof value === 'string') return textOf(value, pass);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) {
    pass.changed = true;
    return '[nested too deep]';
  }
  if (LoushoError.isInstance(value)) return loushoErrorCopy(value, depth, pass);
  if (value instanceof Error) {
    const copy = new Error(textOf(value.message, pass));
    copy.name = value.name;
    if (value.stack !== undefined) copy.stack = textOf(value.stack, pass);
    for (const [key, field] of Object.entries(value)) {
      if (key !== 'message' && key !== 'stack' && key !== 'cause')
        (copy as unknown as Record<string, unknown>)[key] = copyOf(field, depth + 1, pass);
    }
    if (value.cause !== undefined) copy.cause = copyOf(value.cause, depth + 1, pass);
    return copy;
  }
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    const record: Record<string, string> = {};
    value.forEach((v, k) => {
      record[k] = textOf(v, pass);
    });
    return record;
  }
  if (Array.isArray(value)) return value.map((item) => copyOf(item, depth + 1, pass));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyOf(v, depth + 1, pass)]));
}

function loushoErrorCopy(error: LoushoError, depth: number, pass: Pass): LoushoError {
  const copy = new LoushoError(error.code, textOf(error.message, pass), {
    ...(error.cause === undefined ? {} : { cause: copyOf(error.cause, depth + 1, pass) }),
    isRetryable: error.isRetryable,
    ...(error.details === undefined
      ? {}
      : { details: copyOf(error.details, depth + 1, pass) as Record<string, unknown> }),
    ...(error.partialResult === undefined ? {} : { partialResult: error.partialResult }),
  });
  if (error.stack !== undefined) copy.stack = textOf(error.stack, pass);
  return copy;
}

/**
 * `value` with every string redacted: errors (message, stack, their own fields and their
 * cause chain) are copied as Errors of the same name, Headers as a record, arrays and
 * plain objects as copies; other values are kept. When nothing held a secret, `value`
 * itself is returned, so `error.cause` stays the client's own error (and its class).
 */
export function redactedCopy(value: unknown): unknown {
  const pass: Pass = { known: knownSecrets(), changed: false };
  const copy = copyOf(value, 0, pass);
  return pass.changed ? copy : value;
}

/**
 * The error with its message, stack, details and cause chain redacted (same code,
 * retryability and partial result); the error itself when none of them held a secret.
 */
export function redactError(error: LoushoError): LoushoError {
  const pass: Pass = { known: knownSecrets(), changed: false };
  const copy = loushoErrorCopy(error, 0, pass);
  return pass.changed ? copy : error;
}
