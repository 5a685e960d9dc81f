/** ANSI styles for the terminal, or none: plain text when piped, with NO_COLOR set, or TERM=dumb. */
export interface Colours {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/**
 * Whether to colour a stream: FORCE_COLOR (not '0') turns it on, NO_COLOR (any value, see
 * no-color.org) or TERM=dumb off; otherwise only a terminal gets colour.
 */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** The styles, as escape codes when `enabled`, else as the identity. */
export function colours(enabled: boolean): Colours {
  const style = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: style(1, 22),
    dim: style(2, 22),
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
    magenta: style(35, 39),
  };
}
