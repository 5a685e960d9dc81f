#!/usr/bin/env node
/**
 * The `lousho` command. `lousho run [folder]` (the default, `npm start`) is the main job: an
 * agent reads a folder with real file tools and compacts its transcript as it goes (see
 * run-job.ts). `lousho inspect` and `lousho compact` work on a saved transcript. `lousho
 * --help` lists them all.
 */
import { runProcess } from './cli-process.js';

void runProcess(process.argv.slice(2));
