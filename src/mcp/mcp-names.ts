import { createHash } from 'node:crypto';

/** A name every provider takes for a tool: 1-64 letters, digits, '_' or '-'. */
const LEGAL = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest tool name. */
const MAX = 64;

/** 6 hex characters of the SHA-256 of the server-side name: the same name always gets the same suffix. */
function suffix(name: string, length = 6): string {
  return createHash('sha256').update(name).digest('hex').slice(0, length);
}

/**
 * The names the model sees for one server's tools, by server-side name. The rule:
 * `prefix + name` as it is when it is a legal name (1-64 letters, digits, '_', '-');
 * otherwise every other character becomes '_', and when that form is over 64 characters or
 * is another tool's name too, it is cut to 57 characters and ends with '_' and 6 hex
 * characters of the SHA-256 of the server-side name. A name depends on the names of the
 * list only, never on their order, so it stays the same from one listing to the next.
 */
export function modelToolNames(names: readonly string[], prefix = ''): Map<string, string> {
  const legal = new Set<string>();
  const cleaned = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const name of names) {
    const whole = `${prefix}${name}`;
    if (LEGAL.test(whole)) legal.add(whole);
    else {
      const form = whole.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
      cleaned.set(name, form);
      counts.set(form, (counts.get(form) ?? 0) + 1);
    }
  }
  const out = new Map<string, string>();
  const taken = new Set(legal);
  for (const name of names) {
    const form = cleaned.get(name);
    if (form === undefined) {
      out.set(name, `${prefix}${name}`);
      continue;
    }
    const clash = form.length > MAX || legal.has(form) || (counts.get(form) ?? 0) > 1;
    let chosen = form;
    for (let length = 6; clash && (chosen === form || taken.has(chosen)); length += 2)
      chosen = `${form.slice(0, MAX - length - 1)}_${suffix(name, length)}`;
    taken.add(chosen);
    out.set(name, chosen);
  }
  return out;
}
