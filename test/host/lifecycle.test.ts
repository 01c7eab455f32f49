import { describe, expect, it } from 'vitest';
import { createSvc } from '../../src/index';
import { createHost, createMemoryPair } from '../../src/host/index';
import { isSvcError } from '../../src/index';

const app = { id: '0123456789abcdef', version: '1.0.0', locale: 'en', theme: 'light' as const, launch_params: {} };

describe('createHost lifecycle', () => {
  it('close() before any app attached, then attach(): the new app is served', async () => {
    const host = createHost({ app, handlers: { 'storage.get': () => 7 } });
    host.close();
    const [hostEnd, appEnd] = createMemoryPair();
    host.attach(hostEnd);
    const svc = createSvc({ transport: appEnd, snapshot: host.snapshot, timeout: 2_000 }).svc;
    expect(await svc.storage.get('k')).toBe(7);
  });

  it('close() before any app attached fails an invocation that was waiting for one, at once', async () => {
    const host = createHost({ app, handlers: {} });
    const waiting = host.invokeAction('x', {}, { invoked_by: 'user', confirmed: false });
    host.close();
    const error = await waiting.catch((e: unknown) => e);
    expect(isSvcError(error) && error.code).toBe('ERR_DISCONNECTED');
  });

  it('close() after an app attached, then attach(): a reconnecting app is served again', async () => {
    const host = createHost({ app, handlers: { 'storage.get': () => 1 } });
    const [a1, b1] = createMemoryPair();
    host.attach(a1);
    expect(await createSvc({ transport: b1, snapshot: host.snapshot, timeout: 2_000 }).svc.storage.get('k')).toBe(1);
    host.close();
    const [a2, b2] = createMemoryPair();
    host.attach(a2);
    expect(await createSvc({ transport: b2, snapshot: host.snapshot, timeout: 2_000 }).svc.storage.get('k')).toBe(1);
  });
});
