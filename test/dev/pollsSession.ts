// Team Polls (examples/polls) in a folder of its own, with its real backend, on a fresh platform: what each case of
// the messenger's flows starts from. The page is built into the copy, so cases and suites running at the same
// time never share a build made for another backend.
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { createPollsBackend, type PollsBackend } from '../../examples/polls/server/createPollsBackend';
import { type DevPlatform, type DevPlatformOptions, startDevPlatform } from '../../src/dev';
import { observeContract } from '../helpers/observeContract';

const root = resolve(import.meta.dirname, '../..');

/** A running session: the platform, the backend, and a page on the messenger. */
export interface PollsSession {
  platform: DevPlatform;
  /** The backend running now; a case that restarts it puts the new one here, which `close()` stops. */
  backend: PollsBackend;
  page: Page;
  dir: string;
  close(): Promise<void>;
}

/** Team Polls' backend for `platform`, on `port` (again, after a test stopped it). */
export function startPollsBackend(platform: DevPlatform, port: number): Promise<PollsBackend> {
  return createPollsBackend({
    apiBase: platform.baseUrl,
    authUrl: platform.authUrl,
    realm: platform.realm,
    audience: platform.audience,
    miniAppId: platform.miniAppId,
    signingSecret: platform.signingSecret,
    signingSecrets: () => platform.signingSecrets,
    appOrigin: platform.appOrigin,
    port,
  });
}

/** Copies the example, builds it for a backend on a free port, starts the platform and the backend, opens the page. */
export async function startPollsSession(
  browser: Browser,
  options: Partial<DevPlatformOptions> & { viewport?: { width: number; height: number } } = {},
): Promise<PollsSession> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-polls-'));
  for (const file of ['manifest.json', 'index.html', 'src/polls.css', 'icons'])
    await cp(join(root, 'examples/polls', file), join(dir, file), { recursive: true }).catch((error) => {
      if (file !== 'icons') throw error;
    });
  // The backend's port first: its URL goes into the page's build and into the platform's allowlist.
  const probe = await createPollsBackend({
    apiBase: 'http://127.0.0.1:1/v1',
    authUrl: 'http://127.0.0.1:1',
    realm: 'x',
    audience: 'x',
    miniAppId: 'x',
    signingSecret: 'x',
    appOrigin: 'http://x',
  });
  const port = Number(new URL(probe.origin).port);
  await probe.close();
  const { buildPollsApp } = await import(join(root, 'examples/polls/build.mjs'));
  await buildPollsApp({ api: probe.origin, outfile: join(dir, 'dist/app.js') });
  // The backend's server API answers and the platform's webhooks are checked against the published contract.
  const contract = observeContract();
  contract.active = true;
  const { viewport, ...platformOptions } = options;
  const platform = await startDevPlatform({
    dir,
    port: 0,
    webhooks: `${probe.origin}/svc/webhooks`,
    allow: [probe.origin],
    retryScale: 0.01,
    ...platformOptions,
  });
  const backend = await startPollsBackend(platform, port);
  // A context of its own (what axe-core's Playwright builder needs), closed with the session.
  const context = await browser.newContext({ viewport: viewport ?? { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(platform.url);
  const session: PollsSession = {
    platform,
    backend,
    page,
    dir,
    async close() {
      await context.close();
      // The backend running now: a case may have stopped and restarted it.
      await session.backend.close();
      await platform.close();
      if (contract.issues.length)
        throw new Error(`svc dev broke its contract:\n${contract.issues.splice(0).join('\n')}`);
    },
  };
  return session;
}
