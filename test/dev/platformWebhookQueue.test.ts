// Webhooks after an outage, from an outside soak check: every delivery that waited arrived at once, each on a socket
// of its own, and a backend down longer than the retries last got nothing back but one "send again" at a time. The
// platform now makes a few attempts at a time (LIMITS.webhookAttemptsInFlight), and sends every failed delivery
// again on one request. A real backend on loopback, the control API over HTTP.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it, onTestFinished } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { LIMITS } from '../../src/dev/limits';
import { platformHeaders } from '../helpers/controlApi';
import { writeAppDir } from './appDir';

/** A webhook backend on loopback; `answer` decides each request. */
async function backend(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  onTestFinished(() => new Promise<void>((ok) => server.close(() => ok())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

async function platformFor(webhooks: string, retryScale: number): Promise<DevPlatform> {
  const platform = await startDevPlatform({ dir: await writeAppDir(), port: 0, mcp: false, webhooks, retryScale });
  onTestFinished(() => platform.close());
  return platform;
}

it('makes a few attempts at a time: the others wait their turn, and every delivery arrives once', async () => {
  let inFlight = 0;
  let most = 0;
  const arrived: string[] = [];
  const url = await backend((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    arrived.push(String(req.headers['x-svc-delivery-id']));
    setTimeout(() => {
      inFlight--;
      res.writeHead(200).end();
    }, 100);
  });
  const platform = await platformFor(url, 1);
  const count = LIMITS.webhookAttemptsInFlight * 3;
  for (let i = 0; i < count; i++)
    await (i % 2 ? platform.revoke('svc.room.context') : platform.grant('svc.room.context'));
  await expect
    .poll(() => platform.deliveries().filter((d) => d.state === 'delivered').length, { timeout: 10_000 })
    .toBe(count);
  // Without the cap all of them were in flight at once here (each is held 100 ms, and they are made faster).
  expect(most).toBeLessThanOrEqual(LIMITS.webhookAttemptsInFlight);
  expect(most).toBeGreaterThan(1);
  expect(arrived.sort()).toEqual(
    platform
      .deliveries()
      .map((d) => d.id)
      .sort(),
  );
});

it('sends every failed delivery again on one request, each once, and only those not sent again yet', async () => {
  let up = false;
  const url = await backend((_req, res) => res.writeHead(up ? 200 : 503).end());
  // Retries a thousand times faster: six attempts in about 31 ms.
  const platform = await platformFor(url, 0.001);
  await platform.grant('svc.room.context');
  await platform.revoke('svc.room.context');
  await platform.grant('svc.room.context');
  await expect.poll(() => platform.deliveries().filter((d) => d.state === 'failed').length).toBe(3);
  const failed = platform.deliveries().map((d) => d.id);
  up = true;
  // One of them sent again by hand first: the request leaves it alone.
  const resend = (path: string, body: object) =>
    fetch(`${platform.origin}/__svc/deliveries/${path}`, {
      method: 'POST',
      headers: platformHeaders(platform),
      body: JSON.stringify(body),
    });
  expect((await resend('resend', { id: failed[0] })).status).toBe(200);
  expect((await resend('resend-failed', {})).status).toBe(200);
  await expect.poll(() => platform.deliveries().filter((d) => d.state === 'delivered').length).toBe(3);
  expect(platform.deliveries().map((d) => d.resend_of)).toEqual([undefined, undefined, undefined, ...failed]);
  // Nothing failed waits now: a second request sends nothing.
  expect((await resend('resend-failed', {})).status).toBe(200);
  expect(platform.deliveries()).toHaveLength(6);
});

it('says what to do when there is no webhook URL to send to', async () => {
  const platform = await startDevPlatform({ dir: await writeAppDir(), port: 0, mcp: false });
  onTestFinished(() => platform.close());
  const answer = await fetch(`${platform.origin}/__svc/deliveries/resend-failed`, {
    method: 'POST',
    headers: platformHeaders(platform),
    body: '{}',
  });
  expect(answer.status).toBe(400);
  expect((await answer.json()).detail).toBe('There is no webhook URL to send to: start svc dev with --webhooks <url>.');
});
