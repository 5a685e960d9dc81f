/**
 * The test MCP server over stdio: `node mcp-stdio-server.js [pageSize] [fillers]`. With
 * MCP_TEST_LOG set, it appends "pid <pid>" when it starts and "cancelled <id>" when a call is
 * cancelled to that file.
 */
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTestMcpServer } from './mcp-test-server.js';

const logFile = process.env.MCP_TEST_LOG;
const log = (line: string) => {
  if (logFile !== undefined) appendFileSync(logFile, `${line}\n`);
};
const [pageSize, fillers] = process.argv.slice(2).map(Number);
const { server } = createTestMcpServer({
  ...(pageSize ? { pageSize } : {}),
  ...(fillers ? { fillers } : {}),
  log,
});
await server.connect(new StdioServerTransport());
log(`pid ${process.pid}`);
