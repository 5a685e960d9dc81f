const WORDS = (
  'alpha beta gamma delta river stone cloud market vector orange silver lantern harbor quiet rapid ' +
  'module buffer parser token window summary engine branch commit review deploy config server client'
).split(' ');

/** `chars` characters of varied text, the same for the same seed (a small linear congruential generator). */
export function prose(seed: number, chars: number): string {
  let s = (seed * 2_654_435_761) >>> 0;
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    const word = `${WORDS[s % WORDS.length]}${(s >>> 8) % 97}`;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ').slice(0, chars);
}
