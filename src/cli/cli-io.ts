/** Where a command writes. */
export interface CliIO {
  /** A line of the command's output (stdout). */
  out(line: string): void;
  /** A line of messages and reports (stderr). */
  err(line: string): void;
  /** Replaces the current status line (stderr, a terminal only); an empty text clears it. Absent when piped. */
  status?(text: string): void;
  /** Whether stdout takes colour (a terminal, no NO_COLOR). */
  colour?: boolean;
}
