// The browser cases (bridgeCases.mjs, mockCases.mjs) in Firefox or WebKit, chosen by SVC_ENGINE: the same case list the Chromium
// suite runs through @playwright/test (bridge.spec.ts), here through each engine's own driver (launchEngine.mjs).
// Run by scripts/test.mjs with vitest.engines.config.ts, once per engine.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { helpersFor } from './bridgeCases.mjs';
import { tests } from './declareCases.mjs';
import { launchEngine } from './engines/launchEngine.mjs';
import { declareMockCases } from './mockCases.mjs';
import { exchangeManifest } from '../mock/fixtures';
import { startServers } from './server.mjs';

const engine = (process.env.SVC_ENGINE ?? 'firefox') as 'firefox' | 'webkit';
declareMockCases(exchangeManifest());

describe.sequential(`the bridge in ${engine}`, () => {
  let launched: Awaited<ReturnType<typeof launchEngine>>;
  let servers: Awaited<ReturnType<typeof startServers>>;
  let origins: { H: string; A: string; X: string; E: string };

  beforeAll(async () => {
    servers = await startServers(3);
    const [hp, ap, ep] = servers.ports;
    origins = {
      H: `http://127.0.0.1:${hp}`,
      A: `http://127.0.0.1:${ap}`,
      X: `http://localhost:${ap}`,
      E: `http://localhost:${ep}`,
    };
    launched = await launchEngine(engine);
  }, 60_000);

  afterAll(async () => {
    await launched?.close();
    await servers?.close();
  });

  for (const { name, fn, timeout } of tests)
    it(name, { timeout: timeout * 2 }, async () => {
      const context = await launched.newContext();
      try {
        await fn(helpersFor(context, launched.browser, origins, engine));
      } finally {
        await context.close();
      }
    });
});
