import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../../src/dev/platform/createWebhookSender';
import type { DevDelivery } from '../../src/dev/devContract';
import { verifyWebhook, type WebhookEventName } from '../../src/server';
import { WEBHOOK_SCHEMAS } from '../../src/server/webhookSchemas';

const SECRET = 'whsec-dev';
let failuresLeft = 0;
const received: Array<{ event: string; deliveryId: string }> = [];
let server: Server;
let url = '';

beforeAll(async () => {
  // The backend: verifies each delivery with svc-sdk/server and fails on purpose while failuresLeft > 0.
  server = createServer(async (req, res) => {
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
      });
      res.writeHead(200).end();
    } catch {
      res.writeHead(401).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

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
    const sender = createWebhookSender({ url, miniAppId: 'polls', secrets: () => [SECRET], changed: () => {} });
    const delivery = sender.send('scope.granted', payload('scope.granted'));
    await settled(delivery);
    expect(delivery.state).toBe('delivered');
    expect(received.at(-1)).toEqual({ event: 'scope.granted', deliveryId: delivery.id });
    sender.close();
  });

  it('retries a failing backend with backoff and logs every attempt', async () => {
    failuresLeft = 2;
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

  it('marks a delivery failed after maxAttempts, and a wrong secret is refused by the backend', async () => {
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
});
