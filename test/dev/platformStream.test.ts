// The event stream for readers over HTTP (the page's channel carries the same events): the whole state once, then
// each change as its patches, which rebuild exactly the state the control API serves, at a size that does not grow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevPlatform, startDevPlatform } from '../../src/dev';
import { type StoredPatch, withPatches } from '../../src/dev/withPatches';
import { writeAppDir } from './appDir';

let platform: DevPlatform;
beforeAll(async () => {
  platform = await startDevPlatform({ dir: await writeAppDir() });
});
afterAll(() => platform?.close());

/** Reads server-sent events from the stream, one `{ event, data }` at a time. */
async function* events(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (event && data) yield { event, data };
    }
  }
}

describe('the event stream', () => {
  it('sends the state once, then patches that rebuild the state the control API serves', async () => {
    const url = new URL(platform.url);
    const headers = { origin: url.origin, 'x-svc-dev-token': url.searchParams.get('token')! };
    const res = await fetch(`${url.origin}/__svc/events?token=${url.searchParams.get('token')}`, { headers });
    const stream = events(res.body!);
    const first = (await stream.next()).value!;
    expect(first.event).toBe('state');
    let state = JSON.parse(first.data).state;
    // Each change's patch carries what it wrote, never the rest of the state.
    await platform.grant('svc.files.read');
    await platform.grant('svc.room.context');
    await platform.revoke('svc.files.read');
    const sizes: number[] = [];
    while ((state.revision ?? 0) < (await (await fetch(`${url.origin}/__svc/state`, { headers })).json()).revision) {
      const next = (await stream.next()).value!;
      if (next.event !== 'patch') continue;
      sizes.push(next.data.length);
      const { revision, p } = JSON.parse(next.data) as { revision: number; p: StoredPatch[] };
      expect(revision).toBe((state.revision ?? 0) + 1);
      state = withPatches(state, p);
    }
    const served = await (await fetch(`${url.origin}/__svc/state`, { headers })).json();
    expect(state).toEqual(served);
    expect(Math.max(...sizes)).toBeLessThan(JSON.stringify(served).length / 4);
    await stream.return(undefined);
  });
});
