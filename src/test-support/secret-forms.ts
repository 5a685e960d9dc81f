/**
 * The encodings of a secret the redaction tests try: each is how a server may echo a key back.
 * `secretForms()` finds them in any text, base64 and hex also inside longer runs.
 */
export const ENCODINGS: Record<string, (secret: string) => string> = {
  base64: (s) => Buffer.from(s).toString('base64'),
  base64url: (s) => Buffer.from(s).toString('base64url'),
  'hex lower': (s) => Buffer.from(s).toString('hex'),
  'hex upper': (s) => Buffer.from(s).toString('hex').toUpperCase(),
  'percent-encoded': (s) => encodeURIComponent(s),
  'percent-encoded twice': (s) => encodeURIComponent(encodeURIComponent(s)),
  'JSON-escaped': (s) => JSON.stringify(s).slice(1, -1).replaceAll('/', '\\/'),
  reversed: (s) => [...s].reverse().join(''),
};

/** The forms of `secret` found in `text` (by name); [] when none is there. */
export function secretForms(text: string, secret: string): string[] {
  const found = new Set<string>();
  if (text.includes(secret)) found.add('literal');
  const lower = text.toLowerCase();
  for (const [name, encode] of Object.entries(ENCODINGS)) {
    const form = encode(secret);
    if (name.startsWith('percent') ? lower.includes(form.toLowerCase()) : text.includes(form)) found.add(name);
  }
  // Inside longer base64 or hex text: decode every run and look for the secret's middle.
  const core = secret.slice(2, -2);
  for (const run of text.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []) {
    for (const alphabet of ['base64', 'base64url'] as const)
      if (Buffer.from(run, alphabet).toString('latin1').includes(core)) found.add(alphabet);
    if (/^[0-9a-fA-F]+$/.test(run))
      for (const shift of [0, 1])
        if (Buffer.from(run.slice(shift), 'hex').toString('latin1').includes(core)) found.add('hex');
  }
  return [...found];
}
