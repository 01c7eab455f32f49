import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebhookSender } from '../../src/dev/platform/createWebhookSender';
import type { DevDelivery } from '../../src/dev/devContract';
import { formatDevEvent } from '../../src/dev';
import { verifyWebhook, type WebhookEventName } from '../../src/server';
import { WEBHOOK_SCHEMAS } from '../../src/server/webhookSchemas';

const SECRET = 'whsec-dev';

/**
 * A backend of the test's own, closed when the test ends: verifies each delivery with svc-sdk/server and answers
 * 500 to the first `failures` of them. Each test has its own, so no test depends on what another left behind.
 */
async function startBackend(failures = 0) {
  let failuresLeft = failures;
  const received: Array<{ event: string; deliveryId: string; userAgent?: string; authorization?: string }> = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      const event = await verifyWebhook({ body, headers: req.headers }, { secrets: [SECRET] });
      if (failuresLeft > 0) {
        failuresLeft--;
        res.writeHead(500).end();
        return;
      }
      received.push({
        event: (event as { event: string }).event,
        deliveryId: String(req.headers['x-svc-delivery-id']),
        userAgent: req.headers['user-agent'],
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      });
      res.writeHead(200).end();
    } catch {
      res.writeHead(401).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  onTestFinished(() => new Promise<void>((ok) => server.close(() => ok())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received };
}

const settled = (delivery: DevDelivery) =>
  new Promise<void>((resolve) => {
    const poll = () => (delivery.state === 'pending' ? setTimeout(poll, 5) : resolve());
    poll();
  });
// The contract's example of each event, as the platform would send it now.
const payload = (event: WebhookEventName) => ({
  ...WEBHOOK_SCHEMAS[event].example,
  occurred_at: new Date().toISOString(),
  mini_app_id: 'polls',
});

describe('webhook delivery', () => {
  it('signs deliveries so verifyWebhook accepts them', async () => {
    const { url, received } = await startBackend();
    const sender = createWebhookSender({ url, miniAppId: 'polls', secrets: () => [SECRET], changed: () => {} });
    const delivery = sender.send('scope.granted', payload('scope.granted'));
    await settled(delivery);
    expect(delivery.state).toBe('delivered');
    // Named, as firewalls in front of staging backends often refuse a request without a User-Agent.
    expect(received.at(-1)).toEqual({ event: 'scope.granted', deliveryId: delivery.id, userAgent: 'svc-sdk webhooks' });
    sender.close();
  });

  it('sends to a URL with a password (basic authentication), and records it without the password', async () => {
    const { url, received } = await startBackend();
    const sender = createWebhookSender({
      url: url.replace('http://', 'http://staging:pa55word@'),
      miniAppId: 'polls',
      secrets: () => [SECRET],
      changed: () => {},
    });
    const delivery = sender.send('scope.granted', payload('scope.granted'));
    await settled(delivery);
    expect(delivery.state).toBe('delivered');
    expect(received.at(-1)?.authorization).toBe(`Basic ${btoa('staging:pa55word')}`);
    expect(delivery.url).toBe(url.replace('http://', 'http://staging:***@'));
    expect(JSON.stringify(delivery)).not.toContain('pa55word');
    sender.close();
  });

  it('retries a failing backend with backoff and logs every attempt', async () => {
    const { url } = await startBackend(2);
    const sender = createWebhookSender({
      url,
      miniAppId: 'polls',
      secrets: () => [SECRET],
      retryScale: 0.01,
      changed: () => {},
    });
    const delivery = sender.send('installation.created', payload('installation.created'));
    await settled(delivery);
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    sender.close();
  });

  it('says on the terminal that a redirect is not followed, and what to give instead', () => {
    const line = formatDevEvent({
      type: 'webhook',
      event: 'scope.granted',
      delivery_id: '3f2a9c1b-0000',
      attempt: 1,
      status: 302,
      duration_ms: 4,
    });
    expect(line).toMatch(
      /--> webhook scope\.granted \[3f2a9c1b\] attempt 1: 302 \(a redirect, not followed: give --webhooks the final URL\) \(4 ms\)$/,
    );
  });

  it('does not follow a redirect: the signed delivery goes to the URL given alone, and a 3xx is a failed attempt', async () => {
    const { url: elsewhere, received } = await startBackend();
    const redirecting = createServer((_req, res) => void res.writeHead(307, { location: elsewhere }).end());
    await new Promise<void>((ok) => redirecting.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => redirecting.close(() => ok())));
    const sender = createWebhookSender({
      url: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/old-webhooks`,
      miniAppId: 'polls',
      secrets: () => [SECRET],
      retryScale: 0.001,
      maxAttempts: 2,
      changed: () => {},
    });
    const delivery = sender.send('scope.granted', payload('scope.granted'));
    await settled(delivery);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual([307, 307]);
    expect(received).toEqual([]);
    sender.close();
  });

  it('says why a delivery found no backend, and ends an answer that stops in its body at the budget', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const options = { miniAppId: 'polls', secrets: () => [SECRET], retryScale: 0.001, maxAttempts: 1, changed() {} };
    const refused = createWebhookSender({ ...options, url: `http://127.0.0.1:${port}/webhooks` });
    const nobody = refused.send('scope.granted', payload('scope.granted'));
    await settled(nobody);
    expect(nobody.attempts[0]!.error).toBe(`ECONNREFUSED: is the backend running at http://127.0.0.1:${port}?`);
    refused.close();
    // A backend that takes the request and drops the connection is running: its own log says why.
    const dropping = createServer((req) => req.socket.destroy());
    await new Promise<void>((ok) => dropping.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => dropping.close(() => ok())));
    const dropPort = (dropping.address() as AddressInfo).port;
    const reset = createWebhookSender({ ...options, url: `http://127.0.0.1:${dropPort}/webhooks` });
    const dropped = reset.send('scope.granted', payload('scope.granted'));
    await settled(dropped);
    expect(dropped.attempts[0]!.error).toBe(
      `ECONNRESET: the backend at http://127.0.0.1:${dropPort} closed the connection without answering; look at its log`,
    );
    reset.close();
    // Headers and part of a body, then nothing: the attempt ends at its budget as a timeout.
    const stalling = createServer((_req, res) => void res.writeHead(200, { 'content-length': '100' }).write('{"ok"'));
    await new Promise<void>((ok) => stalling.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => stalling.close(() => ok())));
    const slow = createWebhookSender({
      ...options,
      url: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/webhooks`,
      timeoutMs: 200,
    });
    const stalled = slow.send('scope.granted', payload('scope.granted'));
    await settled(stalled);
    expect(stalled.state).toBe('failed');
    expect(stalled.attempts[0]).toMatchObject({ error: 'timeout' });
    expect(stalled.attempts[0]!.status).toBeUndefined();
    slow.close();
  });

  it('marks a delivery failed after maxAttempts, and a wrong secret is refused by the backend', async () => {
    const { url } = await startBackend();
    const sender = createWebhookSender({
      url,
      miniAppId: 'polls',
      secrets: () => ['wrong'],
      retryScale: 0.001,
      maxAttempts: 2,
      changed: () => {},
    });
    const delivery = sender.send('scope.revoked', payload('scope.revoked'));
    await settled(delivery);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual([401, 401]);
    sender.close();
  });

  it('cuts short an attempt in flight when it stops, counting none: the delivery stays pending for the next start', async () => {
    // A backend that never answers: before, stopping waited out the 5 s budget and counted a timeout.
    let arrived = false;
    let ended = false;
    const server = createServer((req) => {
      arrived = true;
      req.on('close', () => (ended = true));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => server.close(() => ok())));
    const changes: DevDelivery[] = [];
    const sender = createWebhookSender({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
      miniAppId: 'polls',
      secrets: () => [SECRET],
      changed: (d) => void changes.push(d),
    });
    const delivery = sender.send('scope.granted', payload('scope.granted'));
    await expect.poll(() => arrived).toBe(true);
    sender.close();
    await expect.poll(() => ended).toBe(true);
    await expect.poll(() => changes.length).toBe(1);
    expect(delivery).toMatchObject({ state: 'pending', attempts: [] });
  });
});
