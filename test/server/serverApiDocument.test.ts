// The published contract, schema/server-api.openapi.json: current with its generator, valid OpenAPI 3.1, and
// holding everything a backend in another language needs (base URL, endpoints, problems, signing, six webhooks).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator as OpenApiValidator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import {
  renderServerApiDocument,
  renderServerApiTypes,
  SERVER_API_DOCUMENT_FILE,
  SERVER_API_TYPES_FILE,
} from '../../scripts/serverApiSchema';
import { PROBLEMS, signRequest, WEBHOOK_EVENTS } from '../../src/server';
import { WEBHOOK_SCHEMAS } from '../../src/server/webhookSchemas';
import { checkWebhook, contract } from '../helpers/serverApiContract';

const read = (file: string) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
const committed = read(SERVER_API_DOCUMENT_FILE);

describe('schema/server-api.openapi.json', () => {
  test('is what the generator produces from the shared schemas now (npm run schema:server-api if this fails)', async () => {
    expect(committed).toBe(renderServerApiDocument());
    expect(read(SERVER_API_TYPES_FILE)).toBe(await renderServerApiTypes(committed));
  });

  test('validates as OpenAPI 3.1', async () => {
    const validator = new OpenApiValidator();
    const result = await validator.validate(JSON.parse(committed));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('gives the base URL ending in /v1 and the four endpoints with their success statuses', () => {
    expect(contract.servers[0].url).toBe('{base_url}');
    expect(contract.servers[0].variables.base_url.default).toMatch(/\/v1$/);
    const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
      Object.entries(item as object).map(([method, op]) => [
        `${method.toUpperCase()} ${path}`,
        Object.keys(op.responses).find((s) => s.startsWith('2')),
      ]),
    );
    expect(operations).toEqual([
      ['POST /rooms/{room_id}/cards', '201'],
      ['POST /users/{app_user_id}/notifications', '201'],
      ['GET /apps/{mini_app_id}/installations/{app_user_id}', '200'],
      ['POST /agents/verify', '200'],
    ]);
  });

  test('marks each part the platform does not state with x-svc-sdk-decision, saying what to tolerate', () => {
    const decision = 'x-svc-sdk-decision';
    const notify = contract.paths['/users/{app_user_id}/notifications'].post;
    expect(notify.responses['201'][decision]).toMatch(/Take any 2xx as sent\.$/);
    expect(contract.paths['/rooms/{room_id}/cards'].post.responses['201'][decision]).toBeUndefined();
    expect(contract.paths['/agents/verify'].post.requestBody[decision]).toMatch(/^This body is svc-sdk's decision/);
    expect(notify.requestBody[decision]).toMatch(/maxLength, maxItems/);
    // The two problem names the platform states are not marked; a status that has only them is not either.
    expect(notify.responses['403'][decision]).toMatch(/`tenant-policy`/);
    expect(notify.responses['403'][decision]).not.toMatch(/`scope-not-granted`/);
    // Every event's payload but the one the platform documents; and every event's retry, resent as the same bytes.
    const marked = WEBHOOK_EVENTS.filter((event) => /^The payload of/.test(contract.webhooks[event].post[decision]));
    expect(marked).toEqual(WEBHOOK_EVENTS.filter((event) => event !== 'user.deprovisioned'));
    for (const event of WEBHOOK_EVENTS)
      expect(contract.webhooks[event].post[decision]).toMatch(/a retry resends the same bytes.*deliveryKey option\.$/);
  });

  test('answers every error as problem details naming its types, 429 with Retry-After, 401 for the signature', () => {
    const named = new Set<string>();
    for (const item of Object.values(contract.paths) as object[])
      for (const op of Object.values(item) as { responses: Record<string, any> }[])
        for (const [status, response] of Object.entries(op.responses)) {
          if (status.startsWith('2')) continue;
          const media = response.content['application/problem+json'];
          expect(media.schema.allOf[0].$ref).toBe('#/components/schemas/Problem');
          for (const name of Object.keys(media.examples)) {
            named.add(name);
            expect(PROBLEMS[name as keyof typeof PROBLEMS].status).toBe(Number(status));
          }
          if (status === '429') expect(response.headers['Retry-After'].$ref).toBe('#/components/headers/Retry-After');
        }
    // Every problem the server API answers; `forbidden` belongs to svc dev's control API.
    expect([...named].sort()).toEqual(
      Object.keys(PROBLEMS)
        .filter((name) => name !== 'forbidden')
        .sort(),
    );
    // A 500 says whether the request's change is done, so that a POST is not sent twice.
    expect(contract.paths['/rooms/{room_id}/cards'].post.responses['500'].description).toMatch(
      /must not be sent again/,
    );
    expect(contract.paths['/users/{app_user_id}/notifications'].post.responses['403'].description).toMatch(
      /scope-not-granted/,
    );
    expect(contract.paths['/rooms/{room_id}/cards'].post.responses['409'].description).toMatch(/room-encrypted/);
  });

  test('names the signing headers as security schemes and describes the signing base', () => {
    const schemes = Object.values(contract.components.securitySchemes).map((s: any) => `${s.in}:${s.name}`);
    expect(schemes).toEqual(['header:X-Svc-Request-Timestamp', 'header:X-Svc-Signature', 'header:X-Svc-Mini-App']);
    expect(contract.security).toEqual([{ svcTimestamp: [], svcSignature: [], svcMiniApp: [] }]);
    expect(contract.info.description).toContain('`v0:`, the timestamp, `:`, then the raw body');
    expect(contract.info.description).toContain('lowercase hexadecimal HMAC-SHA256');
  });

  test('has the six webhooks, each with an example that validates, signed as the platform sends it', async () => {
    expect(Object.keys(contract.webhooks)).toEqual([...WEBHOOK_EVENTS]);
    for (const event of WEBHOOK_EVENTS) {
      const op = contract.webhooks[event].post;
      expect(op.description).toMatch(/2xx status within 5 seconds.*24 hours.*idempotent/s);
      const [example] = Object.values(op.requestBody.content['application/json'].examples) as { value: unknown }[];
      expect(example!.value).toEqual(WEBHOOK_SCHEMAS[event].example);
      const body = JSON.stringify(example!.value);
      const headers = new Headers(await signRequest({ body, secret: 's', miniAppId: '3f1c0a9b7d2e4c68' }));
      expect(checkWebhook(headers, body)).toEqual([]);
      // A payload without a field the contract requires is caught.
      expect(checkWebhook(headers, JSON.stringify({ ...example!.value!, tenant_id: undefined }))).not.toEqual([]);
      // One with a field it does not state is caught by the project's checks, which close what svc dev sends.
      expect(checkWebhook(headers, JSON.stringify({ ...example!.value!, new_field: 1 }))).toContain(
        `webhook ${event} #: Property "new_field" does not match additional properties schema.`,
      );
    }
  });

  test('gives each endpoint its own 400, 404 and 405 examples: a field of its request, its path, its method', () => {
    const details = (status: string) =>
      Object.entries(contract.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => {
          const [example] = Object.values(op.responses[status].content['application/problem+json'].examples) as {
            value: { detail: string; instance: string };
          }[];
          return { path, method, ...example!.value };
        }),
      );
    for (const status of ['400', '404', '405'])
      expect(new Set(details(status).map((d) => d.detail)).size, status).toBe(4);
    for (const { path, method, detail, instance } of details('405')) {
      expect(detail).toBe(
        `${instance} does not take ${method === 'get' ? 'POST' : 'GET'}: send ${method.toUpperCase()} /v1${path}.`,
      );
      expect(instance.split('/').length).toBe(`/v1${path}`.split('/').length);
    }
  });

  test('leaves answers, events and problem details open: a receiver ignores the fields a newer platform adds', () => {
    const closed: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== 'object') return;
      if ((value as { additionalProperties?: unknown }).additionalProperties === false) closed.push(at);
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}/${key}`);
    };
    walk(contract, '#');
    expect(closed).toEqual([]);
    expect(contract.webhooks['scope.granted'].post.description).toContain('Ignore fields you do not know.');
  });
});
