import type { CliIO } from './cli-io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Shows that work is going on: one line on stderr at the start, then (on a terminal) a
 * spinner with the seconds elapsed on the status line until `done()` clears it.
 */
export function startProgress(io: CliIO, text: string): { done(): void } {
  io.err(`${text}…`);
  const status = io.status;
  if (status === undefined) return { done: () => {} };
  const started = Date.now();
  let frame = 0;
  const timer = setInterval(() => {
    frame = (frame + 1) % FRAMES.length;
    status(`${FRAMES[frame]} ${text} (${Math.round((Date.now() - started) / 1000)} s)`);
  }, 120);
  timer.unref();
  return {
    done() {
      clearInterval(timer);
      status('');
    },
  };
}
