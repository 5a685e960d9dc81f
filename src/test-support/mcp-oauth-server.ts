import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestMcpServer } from './mcp-test-server.js';

/**
 * An MCP server on loopback that takes only OAuth bearer tokens, and the authorization server
 * that issues them (one HTTP server for both), as RFC 9728 and RFC 8414 describe them: the
 * protected-resource and authorization-server metadata, dynamic client registration, an
 * authorization endpoint that approves at once (the user said yes) and redirects with a code,
 * and a token endpoint for authorization codes with PKCE (S256) and for client credentials.
 */
export interface OAuthMcpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:43121/mcp */
  url: string;
  /** The client that `clientCredentials` accepts. */
  client: { id: string; secret: string };
  /** The access tokens issued so far. */
  issued: string[];
  /** The Authorization headers the MCP endpoint received. */
  seen: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const client = { id: 'machine-client', secret: `cs-${randomBytes(12).toString('hex')}` };
  const codes = new Map<string, string>(); // code -> PKCE challenge
  const issued: string[] = [];
  const seen: string[] = [];
  let base = '';
  const issue = (res: ServerResponse) => {
    const token = `at-${randomBytes(16).toString('hex')}`;
    issued.push(token);
    json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
  };

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (url.pathname === '/.well-known/oauth-authorization-server')
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      });
    if (url.pathname === '/register' && req.method === 'POST') {
      const metadata = JSON.parse(await bodyOf(req)) as Record<string, unknown>;
      return json(res, 201, { ...metadata, client_id: `dyn-${randomBytes(4).toString('hex')}` });
    }
    if (url.pathname === '/authorize') {
      const code = randomBytes(8).toString('hex');
      codes.set(code, url.searchParams.get('code_challenge') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(req));
      if (form.get('grant_type') === 'authorization_code') {
        const challenge = codes.get(form.get('code') ?? '');
        const verifier = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (challenge === undefined || challenge !== verifier) return json(res, 400, { error: 'invalid_grant' });
        codes.delete(form.get('code') ?? '');
        return issue(res);
      }
      const basic = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = basic.includes(':')
        ? basic.split(':').map(decodeURIComponent)
        : [form.get('client_id'), form.get('client_secret')];
      if (form.get('grant_type') === 'client_credentials' && id === client.id && secret === client.secret)
        return issue(res);
      return json(res, 401, { error: 'invalid_client' });
    }
    if (url.pathname === '/mcp') {
      const auth = String(req.headers.authorization ?? '');
      seen.push(auth);
      if (!issued.includes(auth.replace(/^Bearer /, '')))
        return res
          .writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end();
      const { server } = createTestMcpServer();
      const transport = new StreamableHTTPServerTransport({});
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    client,
    issued,
    seen,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
