// Property-based: hostile frames thrown at the real client (createSvc) and the real host (createHost) over an
// in-memory pair that structured-clones like postMessage.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSvc } from '../../src/index';
import { createHost, createMemoryPair, methods } from '../../src/host/index';
import { fullHandlers } from '../helpers/connect';
import { hostileFrame, materialize, NASTY_KEYS, guardAgainstLeaks, value } from './arbitraries';

guardAgainstLeaks();

const settle = () => new Promise((r) => setTimeout(r, 0));
const names = Object.keys(methods);
const paramKeys = [
  'key',
  'value',
  'scope',
  'room_id',
  'body',
  'title',
  'url',
  'name',
  'blob',
  'message',
  'kind',
  'accept',
  'multiple',
  'prompt',
  'schema',
  'invocation',
  'card',
  'input',
  'context',
  'theme',
  ...NASTY_KEYS,
];
const params = fc.oneof(
  value,
  fc.dictionary(
    fc.constantFrom(...paramKeys),
    fc.oneof(value, fc.constantFrom('light', 'dark', 'room.context', 'https://x.y/', 'k', 'go')),
  ),
);
const wellFormedError = (e: any) =>
  Object.keys(e).sort().join() === 'code,message,retriable' &&
  typeof e.code === 'string' &&
  typeof e.message === 'string' &&
  typeof e.retriable === 'boolean';

describe('the client under hostile frames from its host', () => {
  it('never throws, keeps its theme valid, answers with well-formed errors, and settles a call only with its answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            hostileFrame,
            fc.record({
              svc: fc.constant(1),
              method: fc.constantFrom('app.themeChanged', 'actions.invoke'),
              id: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 4 })),
              params,
            }),
          ),
          { maxLength: 20 },
        ),
        async (frames) => {
          const [appEnd, raw] = createMemoryPair();
          const got: any[] = [];
          raw.listen((m) => void got.push(m));
          const { svc, close } = createSvc({
            transport: appEnd,
            snapshot: { app: { id: 'a', version: '1', locale: 'en', theme: 'light', launch_params: {} } },
          });
          const themes: unknown[] = [];
          svc.app.onThemeChange((t) => void themes.push(t));
          svc.actions.handle('go', async (input) => ({ echoed: input }));
          let state = 'pending';
          const call = svc.storage.get('k').then(
            (v) => {
              state = 'resolved';
              return v;
            },
            () => (state = 'rejected'),
          );
          await settle();
          const ids = got.filter((m) => m.method === 'storage.get').map((m) => m.id);
          expect(ids).toHaveLength(1);
          for (const f of frames) {
            try {
              raw.send(materialize(f, ids));
            } catch {
              // not clonable: could never be posted
            }
          }
          await settle();
          await settle();
          expect(state).toBe('pending');
          expect(themes.every((t) => t === 'light' || t === 'dark')).toBe(true);
          expect(['light', 'dark']).toContain(svc.app.theme);
          for (const a of got) if (Object.hasOwn(a, 'error')) expect(wellFormedError(a.error)).toBe(true);
          raw.send({ svc: 1, id: ids[0], result: 'mine' });
          expect(await call).toBe('mine');
          close();
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('the host under hostile frames from an app', () => {
  it('answers every request exactly once, with a well-formed error or a result, and runs handlers only on valid params', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            method: fc.oneof(
              fc.constantFrom(...names),
              fc.constantFrom(...NASTY_KEYS, 'actions.invoke', 'rpc.closed'),
              fc.string({ maxLength: 8 }),
            ),
            params,
            notify: fc.boolean(),
          }),
          { maxLength: 15 },
        ),
        fc.array(hostileFrame, { maxLength: 10 }),
        async (requests, junk) => {
          const [hostEnd, raw] = createMemoryPair();
          const got: any[] = [];
          raw.listen((m) => void got.push(m));
          const seen: { method: string; params: unknown }[] = [];
          createHost({
            handlers: fullHandlers(seen),
            app: { id: 'a', version: '1', locale: 'en', theme: 'light', launch_params: {} },
            transport: hostEnd,
          });
          for (const f of junk) {
            try {
              raw.send(f);
            } catch {}
          }
          const sent: string[] = [];
          requests.forEach((r, i) => {
            try {
              raw.send(
                r.notify
                  ? { svc: 1, method: r.method, params: r.params }
                  : { svc: 1, id: `#q${i}`, method: r.method, params: r.params },
              );
              if (!r.notify) sent.push(`#q${i}`);
            } catch {}
          });
          for (let i = 0; i < 5; i++) await settle();
          const answers = got.filter((m) => typeof m.id === 'string' && /^#q\d+$/.test(m.id) && !m.method);
          expect(answers.map((a) => a.id).sort()).toEqual([...sent].sort());
          for (const a of answers) if (Object.hasOwn(a, 'error')) expect(wellFormedError(a.error)).toBe(true);
          for (const s of seen) expect((methods as any)[s.method].params(s.params, '')).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });
});
