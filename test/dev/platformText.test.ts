// Text in the server API over real HTTP on loopback, against startDevPlatform serving a mini app whose manifest
// declares non-ASCII routes: what the field bounds allow fits the body cap however it is encoded, and text that is
// not text (a lone surrogate, another charset) is refused naming the field.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { signRequest } from '../../src/server';
import { SERVER_API_LIMITS } from '../../src/server/serverApiLimits';
import { checkServerApiAnswer } from '../helpers/serverApiContract';
import { writeAppDir } from './appDir';

const APP = '0123456789abcdef';
let p: DevPlatform;

beforeAll(async () => {
  const dir = await writeAppDir((manifest) => {
    manifest.routes = [
      { path: '/', title: 'Home' },
      { path: '/café', title: 'Café' },
      { path: '/p/:id', title: 'Poll' },
    ];
  });
  p = await startDevPlatform({ dir, port: 0 });
});
afterAll(() => p.close());

/**
 * Sends `body` (text as it is, or exact bytes) signed over its bytes, with `headers` over the signing ones, through
 * node:http (fetch would normalise a Content-Type and cannot send bytes in a header), and checks the answer against
 * the published contract.
 */
async function send(path: string, body: string | Uint8Array, headers: Record<string, string> = {}, method = 'POST') {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  const signed = await signRequest({ body: bytes, secret: p.signingSecret, miniAppId: APP });
  const url = new URL(path, p.origin);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { ...signed, 'content-length': String(bytes.length), ...headers } },
      async (res) => {
        const parts: Buffer[] = [];
        for await (const part of res) parts.push(part as Buffer);
        const text = Buffer.concat(parts).toString('utf8');
        const answer = { status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined };
        const issues = checkServerApiAnswer({
          method,
          path: url.pathname,
          status: answer.status,
          headers: new Headers(res.headers as Record<string, string>),
          body: answer.body,
        });
        if (issues.length) reject(new Error(`svc dev broke its contract:\n${issues.join('\n')}`));
        else resolve(answer);
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/** A card body for the room every person of svc dev is in. */
const cardJson = (card: Record<string, unknown>) => JSON.stringify({ mini_app_id: APP, app_user_id: 'au-alice', card });

/** JSON as an encoder that writes ASCII only (Python's json.dumps by default): every other character a \u escape. */
const asciiJson = (json: string) =>
  json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('the server API body cap', () => {
  it('takes a card with every field at its bound in emoji, as raw UTF-8 and as ASCII-only JSON', async () => {
    const L = SERVER_API_LIMITS;
    const card = {
      title: '😀'.repeat(L.cardTitle),
      body: '😀'.repeat(L.cardBody),
      actions: Array.from({ length: L.cardActions }, () => ({
        label: '😀'.repeat(L.actionLabel),
        deep_link: `/p/${'😀'.repeat(L.deepLink - 3)}`,
      })),
    };
    for (const json of [cardJson(card), asciiJson(cardJson(card))]) {
      expect(Buffer.byteLength(json)).toBeGreaterThan(256 * 1024);
      const answer = await send('/v1/rooms/general/cards', json);
      expect(answer.status).toBe(201);
      const posted = p.cards('general').find((c) => c.event_id === answer.body.event_id);
      expect(posted?.kind === 'card' && posted.card.body).toBe(card.body);
    }
  });
});
