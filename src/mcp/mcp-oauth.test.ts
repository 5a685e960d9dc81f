import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import { redactText } from '../errors/redact.js';
import { contentText } from '../messages/content.js';
import { rejection } from '../test-support/errors.js';
import { type OAuthMcpServer, startOAuthMcpServer } from '../test-support/mcp-oauth-server.js';
import { mockModel } from '../testing/mock-model.js';

/*
 * OAuth for streamable HTTP through the SDK's OAuthClientProvider, against a loopback
 * authorization server (src/test-support/mcp-oauth-server.ts): the authorization-code flow
 * with PKCE and dynamic client registration (the user's part is a fetch of the authorization
 * page, which approves at once), and client credentials.
 */

const open: (Agent | OAuthMcpServer)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** An OAuthClientProvider as an application writes one: it keeps what the SDK gives it and remembers the page to open. */
class BrowserFlow implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  get redirectUrl() {
    return 'http://127.0.0.1:9/callback';
  }
  get clientMetadata() {
    return { client_name: 'lousho test', redirect_uris: [this.redirectUrl], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}

const echo = { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'signed in' } }] };

describe('OAuth over streamable HTTP', () => {
  it('authorization code: the run asks for authorization, finishAuth(code) completes it, the next run is in', async () => {
    const server = await startOAuthMcpServer();
    open.push(server);
    const flow = new BrowserFlow();
    const agent = createAgent({
      provider: mockModel([echo, 'done']),
      mcpServers: [{ name: 'secure', url: server.url, authProvider: flow }],
    });
    open.push(agent);
    const error = await rejection(agent.send('go'));
    expect(error).toMatchObject({
      code: 'LOUSHO_MCP_SERVER_FAILED',
      details: { server: 'secure', reason: 'unauthorized' },
    });
    expect(error.message).toMatch(/agent\.mcp\.server\('secure'\)\.finishAuth\(code\)/);
    expect(flow.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    // The user's browser: the authorization page approves and redirects back with the code.
    const page = await fetch(flow.authorizationUrl as URL, { redirect: 'manual' });
    const code = new URL(page.headers.get('location') ?? '').searchParams.get('code') ?? '';
    await agent.mcp.server('secure').finishAuth(code);
    const result = await agent.send('go');
    expect(contentText(result.messages.at(-2)?.content ?? '')).toBe('echo: signed in');
    const token = server.issued[0] ?? '';
    expect(server.seen.at(-1)).toBe(`Bearer ${token}`);
    // The token went out in a header, so a server that echoes it has it redacted.
    expect(redactText(`token ${token}`)).not.toContain(token);
  });

  it('client credentials: the SDK provider gets a token without a user, and the first run is in', async () => {
    const server = await startOAuthMcpServer();
    open.push(server);
    const authProvider = new ClientCredentialsProvider({
      clientId: server.client.id,
      clientSecret: server.client.secret,
      expectedIssuer: new URL(server.url).origin,
    });
    const agent = createAgent({
      provider: mockModel([echo, 'done']),
      mcpServers: [{ name: 'secure', url: server.url, authProvider }],
    });
    open.push(agent);
    expect(contentText((await agent.send('go')).messages.at(-2)?.content ?? '')).toBe('echo: signed in');
    expect(server.issued).toHaveLength(1);
  });

  it('finishAuth() with no authorization waiting says to run first', async () => {
    const agent = createAgent({
      provider: mockModel([]),
      mcpServers: [{ name: 'secure', url: 'http://127.0.0.1:9/mcp' }],
    });
    open.push(agent);
    await expect(agent.mcp.server('secure').finishAuth('x')).rejects.toMatchObject({
      code: 'LOUSHO_MCP_SERVER_FAILED',
      message: expect.stringMatching(/has no authorization waiting.*Run the agent first/),
    });
  });
});
