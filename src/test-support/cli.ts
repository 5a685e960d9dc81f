/** What a `lousho` command printed, for tests that call `runCli()` in-process. */
export function captureIO() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

/** The `run` job for tests of the other commands: it must not be called. */
export const noRun = async (): Promise<void> => {
  throw new Error('run should not be called');
};
