import { describe, expect, it } from 'vitest';
import { registerSecret } from '../errors/redact.js';
import { cutToolContent } from '../executor/tool-content.js';
import { blockParts, callOutcome } from './mcp-content.js';

/* MCP content blocks as parts the model reads (blocks written here after the 2025-06-18 schema). */

describe('blockParts()', () => {
  it('takes PNG, JPEG, GIF and WebP images as images, and names the others', () => {
    expect(blockParts({ type: 'image', data: 'iVBO', mimeType: 'image/png' })).toEqual({
      type: 'image',
      image: 'iVBO',
      mediaType: 'image/png',
    });
    expect(blockParts({ type: 'image', data: 'AAAA', mimeType: 'image/jpg' })).toMatchObject({
      mediaType: 'image/jpeg',
    });
    expect(blockParts({ type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' })).toEqual({
      type: 'text',
      text: '[image: image/svg+xml, 6 bytes; not shown, as its type is not PNG, JPEG, GIF or WebP]',
    });
  });

  it('gives an embedded text resource as its text, an image blob as an image, other blobs named', () => {
    expect(
      blockParts({ type: 'resource', resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' } }),
    ).toEqual({
      type: 'text',
      text: '[resource file:///a.md (text/markdown)]\n# A',
    });
    expect(
      blockParts({ type: 'resource', resource: { uri: 'file:///p.png', mimeType: 'image/png', blob: 'iVBO' } }),
    ).toMatchObject({ type: 'image' });
    expect(
      blockParts({
        type: 'resource',
        resource: { uri: 'file:///x.zip', mimeType: 'application/zip', blob: 'AAAAAAAA' },
      }),
    ).toEqual({
      type: 'text',
      text: '[resource file:///x.zip: application/zip, 6 bytes; not shown]',
    });
    // A text type sent as a blob is read as text (server-everything sends text/plain blobs); data that is not UTF-8 is named.
    const blob = (mimeType: string, data: Buffer) =>
      blockParts({ type: 'resource', resource: { uri: 'demo://b', mimeType, blob: data.toString('base64') } });
    expect(blob('text/plain', Buffer.from('héllo'))).toEqual({
      type: 'text',
      text: '[resource demo://b (text/plain)]\nhéllo',
    });
    expect(blob('text/plain', Buffer.from([0xff, 0xfe, 0x00]))).toEqual({
      type: 'text',
      text: '[resource demo://b: text/plain, 3 bytes; not shown]',
    });
  });

  it('names a resource link with its title, URI, type and description', () => {
    const link = {
      type: 'resource_link',
      uri: 'file:///r.csv',
      name: 'r.csv',
      title: 'Report',
      mimeType: 'text/csv',
      description: 'Q3',
    };
    expect(blockParts(link)).toEqual({ type: 'text', text: '[resource link: Report <file:///r.csv> (text/csv): Q3]' });
  });

  it('redacts what a server echoes of a registered secret', () => {
    registerSecret('srv-token-0123456789');
    expect(blockParts({ type: 'text', text: 'I got srv-token-0123456789' })).not.toMatchObject({
      text: expect.stringContaining('0123456789'),
    });
  });
});

describe('callOutcome()', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
  it('gives structured content checked against the outputSchema, once', () => {
    expect(callOutcome({ content: [], structuredContent: { n: 1 } }, schema)).toEqual({
      parts: [{ type: 'text', text: '{"n":1}' }],
    });
    expect(
      callOutcome({ content: [{ type: 'text', text: '{ "n": 1 }' }], structuredContent: { n: 1 } }, schema),
    ).toEqual({
      parts: [{ type: 'text', text: '{ "n": 1 }' }],
    });
    expect(callOutcome({ content: [{ type: 'text', text: 'n is 1' }], structuredContent: { n: 1 } }, schema)).toEqual({
      parts: [{ type: 'text', text: 'n is 1' }],
    });
    expect(callOutcome({ content: [], structuredContent: { n: 'one' } }, schema).error).toMatch(
      /does not match its outputSchema/,
    );
  });

  it('makes an isError result an error with its text', () => {
    expect(callOutcome({ content: [{ type: 'text', text: 'disk full' }], isError: true }, undefined)).toEqual({
      error: 'disk full',
    });
  });
});

describe('cutToolContent()', () => {
  it('cuts the text of the parts as a text result is cut, and keeps images within the limit', () => {
    const parts = [
      { type: 'text' as const, text: 'a'.repeat(600) },
      { type: 'image' as const, image: 'AAAA' },
      { type: 'text' as const, text: 'b'.repeat(600) },
    ];
    const cut = cutToolContent(parts, 1000) as { type: string; text?: string }[];
    expect(cut.map((p) => p.type)).toEqual(['text', 'image']);
    expect(cut[0]?.text).toMatch(/^a{600}\nb+\n\[cut: this result was 1,201 characters; only the first 1,000 are kept/);
    expect(cut[0]?.text?.length).toBeLessThanOrEqual(1000);
    expect(cutToolContent([{ type: 'text', text: 'short' }], 1000)).toBe('short');
  });
});
