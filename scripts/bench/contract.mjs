// The published contract's figures: the size of schema/server-api.openapi.json and the signing and token vectors, and
// the time `svc trigger` takes from the command to its printed answer against a local backend (the built bin, a
// fresh Node process each time, a createWebhookHandler backend on loopback).
// `node scripts/bench/contract.mjs [--quick]` (build first).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const root = resolve(import.meta.dirname, '../..');

/** Bytes and brotli bytes of the shipped contract files. */
export function contractSizes() {
  return ['schema/server-api.openapi.json', 'schema/signing-vectors.json', 'schema/token-vectors.json'].map((file) => {
    const bytes = readFileSync(resolve(root, file));
    const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    return { file, bytes: bytes.length, brotli };
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

/** Runs `svc trigger` `samples` times against a local backend: wall times (command to exit) and answer times. */
export async function benchTrigger({ samples = 20 } = {}) {
  const { createWebhookHandler } = await import(pathToFileURL(resolve(root, 'dist/server.js')).href);
  const secret = 'whsec_bench_contract';
  const handle = createWebhookHandler({ secrets: [secret], on: { 'user.deprovisioned': () => {} } });
  const server = createServer((req, res) => void handle.node(req, res));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/svc/webhooks`;
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-trigger-'));
  writeFileSync(join(dir, 'secret.txt'), secret);
  const run = () =>
    new Promise((done, fail) => {
      const started = performance.now();
      execFile(
        process.execPath,
        [resolve(root, 'dist/cli.js'), 'trigger', 'user.deprovisioned', '--to', url, '--secret-file', 'secret.txt'],
        { cwd: dir },
        (error, stdout) => {
          if (error) return fail(error);
          const answer = Number(/<-- 200 OK in (\d+) ms/.exec(stdout)?.[1]);
          done({ wall: performance.now() - started, answer });
        },
      );
    });
  await run(); // warm the disk cache
  const runs = [];
  for (let i = 0; i < samples; i++) runs.push(await run());
  await new Promise((ok) => server.close(ok));
  const walls = runs.map((r) => r.wall);
  const answers = runs.map((r) => r.answer);
  return { samples, wallMedian: median(walls), wallP95: p95(walls), answerMedian: median(answers) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const s of contractSizes()) console.log(`${s.file}: ${s.bytes} bytes, ${s.brotli} brotli`);
  const t = await benchTrigger({ samples: process.argv.includes('--quick') ? 5 : 20 });
  console.log(
    `svc trigger, command to printed answer: median ${t.wallMedian.toFixed(0)} ms, p95 ${t.wallP95.toFixed(0)} ms (answer itself ${t.answerMedian} ms), ${t.samples} runs`,
  );
}
