import type { AgentHook } from '../contracts/agent-hook.js';
import { configError } from '../errors/lousho-error.js';
import type { Transcript } from '../messages/transcript.js';

/** An ordered set of hooks with unique names, for AgentExecutor. */
export class HookRegistry {
  readonly #hooks: AgentHook[] = [];

  constructor(hooks: readonly AgentHook[] = []) {
    for (const hook of hooks) this.register(hook);
  }

  /** Adds a hook after the ones already there. Throws LOUSHO_CONFIG_INVALID on a bad hook or a duplicate name. */
  register(hook: AgentHook): this {
    if (typeof hook !== 'object' || hook === null || typeof hook.name !== 'string' || hook.name === '') {
      throw configError(
        'A hook is an object with a name and preGenerate() and/or postGenerate(), e.g. createCompactionHook().',
      );
    }
    for (const key of ['preGenerate', 'postGenerate', 'recover'] as const) {
      if (hook[key] !== undefined && typeof hook[key] !== 'function') {
        throw configError(`Hook '${hook.name}': ${key} must be a function.`);
      }
    }
    if (this.has(hook.name)) {
      throw configError(`A hook named '${hook.name}' is already registered; hook names must be unique.`);
    }
    this.#hooks.push(hook);
    return this;
  }

  /** Removes the hook with this name; true when there was one. */
  unregister(name: string): boolean {
    const at = this.#hooks.findIndex((h) => h.name === name);
    if (at >= 0) this.#hooks.splice(at, 1);
    return at >= 0;
  }

  /** True when a hook of that name is registered. */
  has(name: string): boolean {
    return this.#hooks.some((h) => h.name === name);
  }

  /** The hooks, in the order they run. */
  list(): readonly AgentHook[] {
    return this.#hooks;
  }
}

/** After `hook` had the run's transcript: unless it changes it only through the transcript, every message is compared at the next count. */
export function afterHook(hook: AgentHook, transcript: Transcript): void {
  if (hook.usesTranscript !== true) transcript.changed(0);
}
