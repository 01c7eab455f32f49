import { afterEach, describe, expect, it } from 'vitest';
import { isSvcError, SvcError } from '../../src/index';
import { connect, settle } from '../helpers/connect';

describe('actions', () => {
  let c: ReturnType<typeof connect>;
  afterEach(() => c?.close());

  it('runs the handler with the input and a context, and returns its result to the host', async () => {
    c = connect('channel');
    // The context's signal is the app's own (it aborts on actions.cancel): it stays in the app.
    c.svc.actions.handle('add', (input: { a: number; b: number }, { signal, ...ctx }) => {
      expect(signal).toBeInstanceOf(AbortSignal);
      return { sum: input.a + input.b, ctx };
    });
    const out = await c.host.invokeAction(
      'add',
      { a: 2, b: 3 },
      { invoked_by: 'agent', agent_id: 'agent-9', confirmed: true },
    );
    expect(out).toEqual({ sum: 5, ctx: { invoked_by: 'agent', agent_id: 'agent-9', confirmed: true } });
  });

  it('sends a thrown error back to the host as ERR_ACTION_FAILED, and an SvcError with its own code', async () => {
    c = connect();
    c.svc.actions.handle('boom', () => {
      throw new Error('disk full');
    });
    c.svc.actions.handle('denied', () => {
      throw new SvcError('ERR_PERMISSION_DENIED', 'the person said no');
    });
    await expect(c.host.invokeAction('boom', {}, { invoked_by: 'user', confirmed: false })).rejects.toMatchObject({
      code: 'ERR_ACTION_FAILED',
      message: expect.stringContaining('disk full'),
    });
    await expect(c.host.invokeAction('denied', {}, { invoked_by: 'user', confirmed: false })).rejects.toMatchObject({
      code: 'ERR_PERMISSION_DENIED',
    });
  });

  it('answers ERR_ACTION_NO_HANDLER for an action without a handler, and after the handler is removed', async () => {
    c = connect();
    const remove = c.svc.actions.handle('x', () => 1);
    expect(await c.host.invokeAction('x', {}, { invoked_by: 'user', confirmed: false })).toBe(1);
    remove();
    await expect(c.host.invokeAction('x', {}, { invoked_by: 'user', confirmed: false })).rejects.toMatchObject({
      code: 'ERR_ACTION_NO_HANDLER',
    });
  });

  it('binds elicit and progress to the running invocation', async () => {
    c = connect();
    c.svc.actions.handle('ask', async () => {
      c.svc.actions.progress('thinking');
      return c.svc.actions.elicit({ prompt: 'How many?', schema: { type: 'number' } });
    });
    expect(await c.host.invokeAction('ask', {}, { invoked_by: 'user', confirmed: false })).toEqual({ answer: 42 });
    await settle();
    const [progress, elicit] = c.seen as { method: string; params: any }[];
    expect(progress).toMatchObject({ method: 'actions.progress', params: { message: 'thinking' } });
    expect(elicit).toMatchObject({
      method: 'actions.elicit',
      params: { prompt: 'How many?', schema: { type: 'number' } },
    });
    expect(progress!.params.invocation).toBe(elicit!.params.invocation);
  });

  it('rejects elicit and throws from progress outside an invocation, with ERR_NO_INVOCATION', async () => {
    c = connect();
    await expect(c.svc.actions.elicit({ prompt: 'x', schema: {} })).rejects.toMatchObject({
      code: 'ERR_NO_INVOCATION',
    });
    expect(() => c.svc.actions.progress('x')).toThrow(expect.objectContaining({ code: 'ERR_NO_INVOCATION' }));
  });

  it('runs invocations one at a time, so each elicit belongs to exactly one of them', async () => {
    c = connect();
    const order: string[] = [];
    c.svc.actions.handle('slow', async (input: { n: string }) => {
      order.push(`start ${input.n}`);
      await settle(10);
      order.push(`end ${input.n}`);
      return input.n;
    });
    const both = await Promise.all([
      c.host.invokeAction('slow', { n: 'a' }, { invoked_by: 'user', confirmed: false }),
      c.host.invokeAction('slow', { n: 'b' }, { invoked_by: 'user', confirmed: false }),
    ]);
    expect(both).toEqual(['a', 'b']);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('rejects an elicit made after its handler returned', async () => {
    c = connect();
    c.svc.actions.handle('leak', () => 'done');
    await c.host.invokeAction('leak', {}, { invoked_by: 'user', confirmed: false });
    await expect(c.svc.actions.elicit({ prompt: 'late', schema: {} })).rejects.toMatchObject({
      code: 'ERR_NO_INVOCATION',
    });
    expect(c.calls).toEqual([]);
  });

  it('rejects bad handle() arguments synchronously', () => {
    c = connect();
    expect(() => c.svc.actions.handle('', undefined as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARGUMENT' }),
    );
    try {
      c.svc.actions.handle(1 as unknown as string, () => 1);
    } catch (e) {
      expect(isSvcError(e)).toBe(true);
    }
  });

  it('checks the invocation arguments on the host side before sending', async () => {
    c = connect();
    await expect(c.host.invokeAction('', {}, { invoked_by: 'user', confirmed: false })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARGUMENT',
    });
    await expect(
      c.host.invokeAction('x', {}, { invoked_by: 'robot' as never, confirmed: false }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_ARGUMENT' });
    // The app trusts these checks (it carries no copy of them): a confirmation must be the boolean true.
    await expect(c.host.invokeAction('x', {}, { invoked_by: 'user', confirmed: 'yes' as never })).rejects.toMatchObject(
      { code: 'ERR_INVALID_ARGUMENT', message: expect.stringContaining('context.confirmed') },
    );
    expect(() => c.host.setTheme('sepia' as never)).toThrow(/theme must be 'light' or 'dark'/);
  });
});
