// Runs the uvu suite in two lanes: the service tests spend about half their time waiting (for a
// child service to turn ready, for Chromium, for a Prometheus scrape), so one process leaves a
// core idle. Each chunk (a file of the slow rooms, or a whole other room) is its own uvu run;
// a lane takes the next chunk when its last one ends, its output is printed whole when it
// ends, and the run closes with uvu's summary over every chunk. Exit 1 when any chunk failed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const testDir = join(root, 'test');
const uvuBin = join(root, 'node_modules', 'uvu', 'bin.js');
const LANES = 2;
/** Rooms whose files each take tens of seconds: run file by file, so the lanes balance. */
const fileByFile = new Set(['e2e', 'scale-out', 'dashboard']);
/** Rough seconds a file of each room takes, to start the longest chunks first. */
const secondsPerFile: Readonly<Record<string, number>> = {
  'e2e': 45, 'scale-out': 25, 'dashboard': 18, 'persistence': 8, 'feed': 4, 'cli': 10,
};

interface Chunk {
  /** What uvu is given after test/: a pattern of paths relative to it, as the serial run names
   *  its files. */
  readonly pattern: string;
  readonly label: string;
  readonly seconds: number;
}

interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly skipped: number;
}

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // What uvu's own walk skips.
    if (entry.name === 'node_modules' || entry.name.startsWith('.git')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(relative(testDir, path));
  }
  return found.sort();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function chunksOf(files: readonly string[]): Chunk[] {
  const rooms = new Map<string, string[]>();
  for (const file of files) {
    const room = file.includes('/') ? file.slice(0, file.indexOf('/')) : '.';
    rooms.set(room, [...(rooms.get(room) ?? []), file]);
  }
  const chunks: Chunk[] = [];
  for (const [room, inRoom] of rooms) {
    const seconds = secondsPerFile[room] ?? 2;
    if (room === '.') {
      chunks.push({ pattern: '^[^/\\\\]+\\.test\\.ts$', label: 'test/*.test.ts',
        seconds: seconds * inRoom.length });
    } else if (fileByFile.has(room)) {
      for (const file of inRoom) {
        chunks.push({ pattern: `^${escape(file)}$`, label: `test/${file}`, seconds });
      }
    } else {
      chunks.push({ pattern: `^${escape(room)}/.*\\.test\\.ts$`, label: `test/${room}/`,
        seconds: seconds * inRoom.length });
    }
  }
  return chunks.sort((a, b) => b.seconds - a.seconds);
}

/** uvu's closing lines (with --no-color): `Total:`, `Passed:`, `Skipped:`, `Duration:`. */
const summaryPattern =
  /\n\s*Total:\s+(\d+)\s*\n\s*Passed:\s+(\d+)\s*\n\s*Skipped:\s+(\d+)\s*\n\s*Duration:\s+\S+\s*$/;

function runChunk(chunk: Chunk): Promise<{ output: string; summary: Summary | null; ok: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath,
      [uvuBin, '-r', 'tsx', 'test', chunk.pattern, '--no-color'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => { output += data.toString(); });
    child.stderr.on('data', (data: Buffer) => { output += data.toString(); });
    child.on('close', (code) => {
      const match = summaryPattern.exec(output);
      const summary = match === null ? null
        : { total: Number(match[1]), passed: Number(match[2]), skipped: Number(match[3]) };
      resolve({ output: match === null ? output : output.slice(0, match.index), summary,
        ok: code === 0 && summary !== null && summary.passed === summary.total - summary.skipped });
    });
  });
}

const startedMs = performance.now();
const queue = chunksOf(testFiles(testDir));
const totals = { total: 0, passed: 0, skipped: 0 };
const failed: string[] = [];

async function lane(): Promise<void> {
  for (let chunk = queue.shift(); chunk !== undefined; chunk = queue.shift()) {
    const { output, summary, ok } = await runChunk(chunk);
    process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    if (summary !== null) {
      totals.total += summary.total;
      totals.passed += summary.passed;
      totals.skipped += summary.skipped;
    }
    if (!ok) failed.push(chunk.label + (summary === null ? ' (ended without a summary)' : ''));
  }
}

await Promise.all(Array.from({ length: LANES }, lane));
if (failed.length > 0) process.stdout.write(`\n  Failed chunks: ${failed.join(', ')}\n`);
const durationMs = (performance.now() - startedMs).toFixed(2);
process.stdout.write(`\n  Total:     ${totals.total}\n  Passed:    ${totals.passed}\n` +
  `  Skipped:   ${totals.skipped}\n  Duration:  ${durationMs}ms\n\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
