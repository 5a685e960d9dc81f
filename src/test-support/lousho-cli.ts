/** The `lousho` command as a child process, for the tests that kill it midway. */
import { runProcess } from '../cli/cli-process.js';

void runProcess(process.argv.slice(2));
