/**
 * A hostile MCP server over stdio: `node mcp-hostile-server.js <scenario>` (see mcp-hostile.ts).
 * With MCP_TEST_LOG set it appends "pid <pid>" at start and "call <name>" per call to that file;
 * HOSTILE_SECRET is what it echoes back.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type HostileScenario, hostileServer } from './mcp-hostile.js';

const scenario = process.argv[2] as HostileScenario;
const logFile = process.env.MCP_TEST_LOG;
const first = logFile === undefined || !existsSync(logFile);
const log = (line: string) => {
  if (logFile !== undefined) appendFileSync(logFile, `${line}\n`);
};
log(`pid ${process.pid}`);
if (scenario === 'exit-at-start') process.exit(2);

const answer = hostileServer(
  scenario,
  {
    send: (message) => process.stdout.write(`${JSON.stringify(message)}\n`),
    raw: (text) => process.stdout.write(text),
    exit: (code) => process.exit(code),
    log,
    first,
  },
  process.env.HOSTILE_SECRET ?? '',
);
createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
  try {
    answer(JSON.parse(line));
  } catch {
    // what the client sends is JSON; anything else is ignored
  }
});
