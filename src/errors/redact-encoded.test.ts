import { describe, expect, it } from 'vitest';
import { redactText, registerSecret, registerSecretUrl } from './redact.js';

const KEY = 'lk-live/Zq8+x3Tt9&w=Pv7Ls2Rr';
registerSecret(KEY);

describe('redactText() of encoded echoes', () => {
  it('redacts the key URL-encoded, in a query and form-encoded', () => {
    const echoed = `GET /v1?key=${encodeURIComponent(KEY)}&x=1 failed`;
    expect(redactText(echoed)).not.toContain(encodeURIComponent(KEY));
    expect(redactText(echoed)).toContain('&x=1 failed');
  });

  it('redacts the key in base64 and base64url, alone and inside a longer base64 text', () => {
    for (const before of ['', 'u:', 'ab:', 'user:', '{"authorization":"']) {
      const b64 = Buffer.from(`${before}${KEY}"}`).toString('base64');
      const url = Buffer.from(`${before}${KEY}`).toString('base64url');
      for (const text of [`Basic ${b64}`, `token=${url}`]) {
        const out = redactText(text);
        expect(Buffer.from(out.split(/[ =]/)[1] ?? '', 'base64').toString()).not.toContain(KEY.slice(4, 20));
        expect(out).toContain('[redacted]');
      }
    }
  });

  it("redacts a key given in a base URL's userinfo or query", () => {
    registerSecretUrl('https://proxy-user:s3cret-Proxy-Pass-99@example.test/v1?api_key=q-Key-Value-0042');
    const text = 'Could not reach https://proxy-user:s3cret-Proxy-Pass-99@example.test/v1?api_key=q-Key-Value-0042';
    const out = redactText(text);
    expect(out).not.toContain('s3cret-Proxy-Pass-99');
    expect(out).not.toContain('q-Key-Value-0042');
  });

  it('leaves text without the key as it is', () => {
    expect(redactText('a plain message with base64 aGVsbG8gd29ybGQ=')).toBe(
      'a plain message with base64 aGVsbG8gd29ybGQ=',
    );
  });
});
