/** How much of a file's start is looked at for NUL bytes (as git and grep do). */
const NUL_WINDOW = 8 * 1024;
/** How much of a file's start is decoded to measure its invalid UTF-8. */
const UTF8_WINDOW = 64 * 1024;
/** Past this share of replaced characters, the bytes are not UTF-8 text. */
const INVALID_SHARE = 0.05;

/**
 * Whether `bytes` (a file's content, or its first 64 KiB) are binary rather than text: a NUL
 * byte in the first 8 KiB, or invalid UTF-8 at a high rate (over a twentieth of the characters
 * of the first 64 KiB decode as U+FFFD, beyond those the text itself holds). A character cut
 * at the end of the window does not count.
 */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, NUL_WINDOW).includes(0)) return true;
  const sample = bytes.subarray(0, UTF8_WINDOW);
  const text = new TextDecoder('utf-8').decode(sample, { stream: sample.length < bytes.length });
  let replaced = 0;
  for (const char of text) if (char === '\uFFFD') replaced++;
  // The text's own U+FFFD (EF BF BD) are valid UTF-8.
  const own = countOf(sample, [0xef, 0xbf, 0xbd]);
  return text.length > 0 && (replaced - own) / text.length > INVALID_SHARE;
}

function countOf(bytes: Uint8Array, seq: readonly number[]): number {
  let n = 0;
  for (let i = bytes.indexOf(seq[0] as number); i >= 0; i = bytes.indexOf(seq[0] as number, i + 1))
    if (bytes[i + 1] === seq[1] && bytes[i + 2] === seq[2]) n++;
  return n;
}

/** The one line a tool answers for a binary file instead of its bytes. */
export function binaryNote(name: string, size: number): string {
  return `${name} is a binary file (${size.toLocaleString('en-US')} bytes): its bytes are not shown.`;
}
