import { describe, expect, it } from 'vitest';
import { attachIframe, createHost, WIRE } from '../../src/host/index';

const app = { id: '0123456789abcdef', version: '1.0.0', locale: 'en', theme: 'light' as const, launch_params: {} };
const origin = 'https://0123456789abcdef.apps.example';

/** A stand-in window and iframe: the listener attachIframe adds, and the welcomes it posts into the frame. */
function frame() {
  let listener: ((event: MessageEvent) => void) | undefined;
  const welcomes: { nonce: string; ports: number }[] = [];
  const contentWindow = {
    postMessage: (data: { nonce: string }, _target: string, ports: unknown[]) =>
      welcomes.push({ nonce: data.nonce, ports: ports.length }),
  };
  const win = {
    addEventListener: (_type: string, fn: typeof listener) => (listener = fn),
    removeEventListener: () => {},
  } as unknown as Window;
  const iframe = { contentWindow } as unknown as HTMLIFrameElement;
  const hello = (nonce: string) =>
    listener!({ source: contentWindow, origin, data: { svc: 'hello', wire: WIRE, nonce } } as unknown as MessageEvent);
  return { win, iframe, welcomes, hello };
}

describe('attachIframe', () => {
  it('answers each nonce once: a replayed older hello gets no welcome, so no new port rebinds the host', () => {
    const host = createHost({ app, handlers: {} });
    const f = frame();
    attachIframe(host, f.iframe, origin, f.win);
    f.hello('n1');
    f.hello('n2'); // a reload
    f.hello('n1'); // a replay of the first page's hello
    f.hello('n2');
    expect(f.welcomes.map((w) => w.nonce)).toEqual(['n1', 'n2']);
    host.close();
  });
});
