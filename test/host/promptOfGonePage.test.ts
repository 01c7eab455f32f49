// A prompt the app's page opened, when that page is gone (it reloaded, left, or another page took its place): the
// answer is told through its signal so the prompt closes, and a late answer is not acted on. A message confirmed
// after its page reloaded was sent, and the new page, never told, would send it again.
import { describe, expect, it, vi } from 'vitest';
import { createSvc } from '../../src/client/createSvc';
import { type AnswerOptions, createHost, createMemoryGrants, createMemoryPair } from '../../src/host';
import { isSvcError } from '../../src/index';
import { exchangeManifest } from '../mock/fixtures';

/** A host whose `send` and `confirm` answers wait for the test, as a person's sheet waits for a click. */
function hostWithOpenSheets() {
  const asked: { answer: (yes: boolean) => void; signal: AbortSignal | undefined }[] = [];
  const waitForPerson = (_request: unknown, options?: AnswerOptions) =>
    new Promise<boolean>((answer) => asked.push({ answer, signal: options?.signal }));
  const sent = vi.fn(() => ({ event_id: '$1' }));
  const host = createHost({
    manifest: exchangeManifest(),
    answers: { send: waitForPerson, confirm: waitForPerson },
    grants: createMemoryGrants({ 'room.send': 'granted' }),
    handlers: { 'message.send': sent },
  });
  return { host, asked, sent };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
};

describe('a prompt of a page that is gone', () => {
  it('is told through its signal when the page says goodbye, and a late yes sends nothing', async () => {
    const { host, asked, sent } = hostWithOpenSheets();
    const [hostEnd, appEnd] = createMemoryPair();
    host.attach(hostEnd);
    const page = createSvc({ transport: appEnd, snapshot: host.snapshot, timeout: 2_000 });
    const sending = page.svc.message.send({ room_id: '!r', body: 'hello' }).catch((e: unknown) => e);
    await until(() => asked.length === 1);
    expect(asked[0]!.signal?.aborted).toBe(false);
    page.close(); // the page leaves: its client says goodbye
    await until(() => asked[0]!.signal?.aborted === true);
    expect(asked[0]!.signal?.aborted).toBe(true);
    asked[0]!.answer(true); // the person clicks Send on the sheet the host failed to close
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).not.toHaveBeenCalled();
    expect(isSvcError(await sending) && ((await sending) as { code: string }).code).toBe('ERR_DISCONNECTED');
  });

  it('is told when another page takes its place (a reload), whose own prompt is asked afresh', async () => {
    const { host, asked, sent } = hostWithOpenSheets();
    const [firstEnd, firstApp] = createMemoryPair();
    host.attach(firstEnd);
    const first = createSvc({ transport: firstApp, snapshot: host.snapshot, timeout: 2_000 });
    void first.svc.ui.confirm({ title: 'Sure?', body: 'A question' }).catch(() => {});
    await until(() => asked.length === 1);
    // The reloaded page connects without the old one's goodbye (a crashed frame sends none).
    const [secondEnd, secondApp] = createMemoryPair();
    host.attach(secondEnd);
    await until(() => asked[0]!.signal?.aborted === true);
    expect(asked[0]!.signal?.aborted).toBe(true);
    const second = createSvc({ transport: secondApp, snapshot: host.snapshot, timeout: 2_000 });
    const sending = second.svc.message.send({ room_id: '!r', body: 'from the new page' });
    await until(() => asked.length === 2);
    expect(asked[1]!.signal?.aborted).toBe(false);
    asked[1]!.answer(true);
    expect(await sending).toEqual({ event_id: '$1' });
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
