/**
 * Writes the UTF-8 bytes of `text[from, to)` into `out` at `offset` and returns the offset
 * after the last byte. A lone surrogate becomes U+FFFD, as TextEncoder writes it. `out`
 * must have room for 3 bytes per UTF-16 unit.
 */
export function writeUtf8(text: string, from: number, to: number, out: Uint8Array, offset: number): number {
  let o = offset;
  for (let i = from; i < to; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[o++] = c;
      continue;
    }
    if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        out[o++] = 0xf0 | (point >> 18);
        out[o++] = 0x80 | ((point >> 12) & 0x3f);
        out[o++] = 0x80 | ((point >> 6) & 0x3f);
        out[o++] = 0x80 | (point & 0x3f);
        i++;
        continue;
      }
      c = 0xfffd;
    }
    out[o++] = 0xe0 | (c >> 12);
    out[o++] = 0x80 | ((c >> 6) & 0x3f);
    out[o++] = 0x80 | (c & 0x3f);
  }
  return o;
}
