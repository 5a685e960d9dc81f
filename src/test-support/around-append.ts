import type { SessionStore } from '../sessions/store.js';

/**
 * The store with `around` wrapped about each of its appends (the test children print a line after
 * each acknowledged save, or stop before one): `around` gets the append's arguments and the
 * append itself; every other method is the store's own.
 */
export function aroundAppend(
  store: SessionStore,
  around: (args: Parameters<SessionStore['append']>, append: () => Promise<number>) => Promise<number>,
): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'append') return value.bind(target);
      return (...args: Parameters<SessionStore['append']>) => around(args, () => target.append(...args));
    },
  });
}
