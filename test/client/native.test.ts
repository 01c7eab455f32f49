import { afterEach, describe, expect, it } from 'vitest';
import { createSvc } from '../../src/index';
import { createHost, installNativePort, NATIVE_PORT, NATIVE_RECEIVE, type Transport } from '../../src/host/index';

const g = globalThis as any;

/** Native code, simulated: it gets JSON strings from the page and answers by calling __svc_receive(json). */
function nativeSide(kind: 'ios' | 'android') {
  const inbox: string[] = [];
  let receive: (m: unknown) => void = () => {};
  const bridge = { postMessage: (json: string) => (inbox.push(json), receive(JSON.parse(json))) };
  if (kind == 'ios') g.webkit = { messageHandlers: { svc: bridge } };
  else g.svcAndroid = bridge;
  // The host's end: JSON both ways, as a WKWebView or an Android WebView carries it.
  let open = true;
  const transport: Transport = {
    send: (m) => void setTimeout(() => open && g[NATIVE_RECEIVE]?.(JSON.stringify(m))),
    listen: (fn) => void (receive = fn),
    close: () => void (open = false),
  };
  return { inbox, transport };
}

describe.each(['ios', 'android'] as const)('the native adapter (%s)', (kind) => {
  afterEach(() => {
    for (const key of ['webkit', 'svcAndroid', 'window', NATIVE_PORT, NATIVE_RECEIVE, '__svc_launch']) delete g[key];
  });

  it('installs a port the client adopts, and carries calls as JSON strings', async () => {
    const native = nativeSide(kind);
    expect(installNativePort()).toBe(true);
    g.window = g;
    g.__svc_launch = {
      bridge: '1.0',
      methods: ['storage.get'],
      app: { id: 'abcdefabcdefabcd', version: '2.0.0', locale: 'ja', theme: 'dark', launch_params: {} },
    };
    const host = createHost({
      transport: native.transport,
      app: g.__svc_launch.app,
      handlers: { 'storage.get': ({ key }) => ({ key }) },
    });
    const { svc, close } = createSvc();
    expect(svc.app.locale).toBe('ja');
    expect(svc.supports('storage.get')).toBe(true);
    expect(await svc.storage.get('k')).toEqual({ key: 'k' });
    expect(typeof native.inbox[0]).toBe('string');
    expect(JSON.parse(native.inbox[0]!)).toMatchObject({ method: 'storage.get', params: { key: 'k' } });
    close();
    host.close();
  });

  it('encodes Blobs as base64 for the bridge and decodes them on the way back', async () => {
    // Native code written by hand, as Swift or Kotlin would: answers from the JSON it gets.
    const frames: any[] = [];
    const bridge = {
      postMessage(json: string) {
        const frame = JSON.parse(json);
        if (!frame.id) return; // notifications (rpc.close) want no answer
        frames.push(frame);
        const result =
          frame.method == 'files.pick'
            ? [
                {
                  file_id: 'p',
                  name: 'x.bin',
                  type: 'application/octet-stream',
                  size: 3,
                  blob: { $blob: 'AP8H', type: 'application/octet-stream' },
                },
              ]
            : { file_id: 'saved' };
        setTimeout(() => g[NATIVE_RECEIVE]?.(JSON.stringify({ svc: 1, id: frame.id, result })));
      },
    };
    if (kind == 'ios') g.webkit = { messageHandlers: { svc: bridge } };
    else g.svcAndroid = bridge;
    installNativePort();
    g.window = g;
    const { svc, close } = createSvc();
    expect(
      await svc.files.save({ name: 'a.png', blob: new Blob([new Uint8Array([1, 2, 250])], { type: 'image/png' }) }),
    ).toEqual({ file_id: 'saved' });
    expect(frames[0].params).toEqual({ name: 'a.png', blob: { $blob: 'AQL6', type: 'image/png' } });
    const [file] = await svc.files.pick();
    expect(file!.blob).toBeInstanceOf(Blob);
    expect(file!.blob.type).toBe('application/octet-stream');
    expect([...new Uint8Array(await file!.blob.arrayBuffer())]).toEqual([0, 255, 7]);
    close();
  });

  it('drops malformed JSON from the bridge without throwing into the page', async () => {
    nativeSide(kind);
    installNativePort();
    const received: unknown[] = [];
    g[NATIVE_PORT].onmessage = (event: { data: unknown }) => received.push(event.data);
    expect(() => g[NATIVE_RECEIVE]('{not json')).not.toThrow();
    expect(() => g[NATIVE_RECEIVE]('{"__proto__":{"polluted":true}}')).not.toThrow();
    expect(({} as any).polluted).toBeUndefined();
    expect(received).toHaveLength(1);
  });

  it('reports that there is no bridge when neither is present', () => {
    expect(installNativePort({})).toBe(false);
  });
});
