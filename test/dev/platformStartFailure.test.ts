// A start that fails half way leaves nothing behind: no port served, no package server, no lock on the state file,
// whichever step failed. Through the public `startDevPlatform`, with real ports on loopback.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type DevNotice, type DevPlatformOptions, startDevPlatform } from '../../src/dev';
import { writeAppDir } from './appDir';

/** The servers this process listens with (what a half-done start would leave open). */
const listening = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/** A server holding `port` on 127.0.0.1, as another program would. */
const hold = (port: number) =>
  new Promise<Server>((ok, fail) => {
    const server = createServer().once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });

/**
 * Starts a platform whose notice handler throws at `kind`: the start fails with that error, and leaves no server
 * listening and the state file unlocked.
 */
async function failsAt(kind: DevNotice['kind'], options: DevPlatformOptions & { statePath: string }) {
  const before = listening();
  const onNotice = (notice: DevNotice) => {
    if (notice.kind === kind) throw new Error('the handler failed');
  };
  await expect(startDevPlatform({ ...options, onNotice })).rejects.toThrow('the handler failed');
  expect(listening()).toBe(before);
  expect(existsSync(`${options.statePath}.lock`)).toBe(false);
}

const holders: Server[] = [];
// The connections of the backend that never answers: ended with it.
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(holders.splice(0).map((s) => new Promise((done) => s.close(done))));
});

describe('a start that fails half way', () => {
  it('stops the servers it had started and frees the state file, when a notice told during the start throws', async () => {
    const dir = await writeAppDir();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-start-')), 'state.json');
    const first = await startDevPlatform({ dir, port: 0, mcp: false, statePath });
    const kept = Number(new URL(first.appUrl).port);
    await first.close();
    // The app's kept port is taken: the package moves to another one and says so, and the handler of that notice
    // throws, after the messenger's server and the moved package server are listening.
    holders.push(await hold(kept));
    await failsAt('package-port-moved', { dir, port: 0, mcp: false, statePath });
  });

  it('stops what it started when the step after the package server fails (a pending delivery resumed)', async () => {
    const dir = await writeAppDir();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-start-')), 'state.json');
    // A backend that never answers: the install's webhook stays pending when the platform stops.
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    holders.push(silent);
    const webhooks = `http://127.0.0.1:${(silent.address() as { port: number }).port}/hooks`;
    const first = await startDevPlatform({ dir, port: 0, mcp: false, statePath, webhooks });
    await first.uninstall('alice');
    await first.close();
    await failsAt('deliveries-resumed', { dir, port: 0, mcp: false, statePath, webhooks });
    // Nothing of the failed start answers or sends: the next start resumes the delivery, and runs.
    const again = await startDevPlatform({ dir, port: 0, mcp: false, statePath, webhooks });
    expect(again.state.deliveries.filter((d) => d.state === 'pending')).toHaveLength(1);
    await again.close();
  });

  it('frees the state file when a notice told before it listens throws', async () => {
    const dir = await writeAppDir();
    const statePath = join(await mkdtemp(join(tmpdir(), 'svc-start-')), 'state.json');
    await failsAt('secret-changed', { dir, port: 0, mcp: false, statePath });
  });
});
