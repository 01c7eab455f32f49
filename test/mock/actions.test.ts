import { describe, expect, test, vi } from 'vitest';
import { createMockHost } from '../../src/mock';
import { exchangeManifest } from './fixtures';
import { rejectsWith } from './helpers';

const poll = { question: 'Lunch?', options: ['pizza', 'sushi'] };

describe('actions', () => {
  test('invokeAction resolves to the handler output; a never-floor action runs unconfirmed', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const handler = vi.fn(() => ({ polls: [] }));
    host.svc.actions.handle('list_polls', handler);
    expect(await host.invokeAction('list_polls', {}, { invoked_by: 'agent', agent_id: 'a1' })).toEqual({ polls: [] });
    expect(handler).toHaveBeenCalledWith(
      {},
      { invoked_by: 'agent', agent_id: 'a1', confirmed: false, signal: expect.any(AbortSignal) },
    );
  });

  test('invalid input rejects ERR_ACTION_INVALID_INPUT naming each issue, before the handler runs', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction: () => true } });
    const handler = vi.fn();
    host.svc.actions.handle('create_poll', handler);
    const error = await rejectsWith(
      host.invokeAction('create_poll', { question: '', options: ['one'], extra: 1 }),
      'ERR_ACTION_INVALID_INPUT',
    );
    expect(error.message).toMatch(/question/);
    expect(error.message).toMatch(/options/);
    expect(error.message).toMatch(/extra/);
    expect(handler).not.toHaveBeenCalled();
  });

  test('an input that is not JSON (undefined, a function, NaN) rejects ERR_ACTION_INVALID_INPUT naming where', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    const handler = vi.fn(() => ({ polls: [] }));
    host.svc.actions.handle('list_polls', handler);
    const none = await rejectsWith(host.invokeAction('list_polls', undefined), 'ERR_ACTION_INVALID_INPUT');
    expect(none.message).toBe(
      "invokeAction('list_polls'): the input does not fit input_schema: $ is undefined, which is not JSON: send strings, finite numbers, booleans, null, arrays and plain objects (pass {} for an action without fields).",
    );
    const fn = await rejectsWith(host.invokeAction('list_polls', { f: () => 1 }), 'ERR_ACTION_INVALID_INPUT');
    expect(fn.message).toContain('$.f is a function, which is not JSON');
    const nan = await rejectsWith(
      host.invokeAction('create_poll', { question: Number.NaN }),
      'ERR_ACTION_INVALID_INPUT',
    );
    expect(nan.message).toContain('$.question is NaN, which is not JSON');
    // A lone surrogate is no text an agent's JSON can carry (svc dev's MCP endpoint refuses it too).
    const lone = await rejectsWith(
      host.invokeAction('create_poll', { question: 'Lunch \ud800?' }),
      'ERR_ACTION_INVALID_INPUT',
    );
    expect(lone.message).toContain('$.question holds a lone surrogate, which is not JSON');
    expect(handler).not.toHaveBeenCalled();
  });

  test('confirm: always asks answers.confirmAction and sets confirmed', async () => {
    const confirmAction = vi.fn(() => true);
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction } });
    const handler = vi.fn((_input: unknown, _context: unknown) => 'closed');
    host.svc.actions.handle('close_poll', handler);
    await host.invokeAction('close_poll', { poll_id: 'p1' }, { invoked_by: 'agent', agent_id: 'a1' });
    // The host's own confirmation request: the manifest's title and destructive flag too.
    expect(confirmAction).toHaveBeenCalledWith(
      expect.objectContaining({
        name: 'close_poll',
        input: { poll_id: 'p1' },
        context: { invoked_by: 'agent', agent_id: 'a1' },
        destructive: expect.any(Boolean),
        title: expect.any(String),
      }),
      { signal: undefined },
    );
    expect(handler.mock.calls[0]![1]).toEqual({
      invoked_by: 'agent',
      agent_id: 'a1',
      confirmed: true,
      signal: expect.any(AbortSignal),
    });
  });

  test('if_destructive asks only for an action annotated destructive', async () => {
    const confirmAction = vi.fn(() => true);
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction } });
    const create = vi.fn();
    const remove = vi.fn();
    host.svc.actions.handle('create_poll', create);
    host.svc.actions.handle('delete_poll', remove);
    await host.invokeAction('create_poll', poll);
    expect(confirmAction).not.toHaveBeenCalled();
    expect(create.mock.calls[0]![1].confirmed).toBe(false);
    await host.invokeAction('delete_poll', { poll_id: 'p1' });
    expect(confirmAction).toHaveBeenCalledTimes(1);
    expect(remove.mock.calls[0]![1].confirmed).toBe(true);
  });

  test('a refused confirmation rejects ERR_PERMISSION_DENIED and the handler never runs', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction: () => false } });
    const handler = vi.fn();
    host.svc.actions.handle('delete_poll', handler);
    await rejectsWith(host.invokeAction('delete_poll', { poll_id: 'p1' }), 'ERR_PERMISSION_DENIED');
    expect(handler).not.toHaveBeenCalled();
  });

  test("confirmActions: 'always' plays a stricter tenant policy: even never-floor actions ask", async () => {
    const confirmAction = vi.fn(() => true);
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction }, confirmActions: 'always' });
    host.svc.actions.handle('list_polls', () => null);
    await host.invokeAction('list_polls', {});
    expect(confirmAction).toHaveBeenCalledTimes(1);
  });

  test('an undeclared action rejects ERR_ACTION_NOT_DECLARED; a declared one without handler ERR_ACTION_NO_HANDLER', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), answers: { confirmAction: () => true } });
    await rejectsWith(host.invokeAction('nope', {}), 'ERR_ACTION_NOT_DECLARED');
    await rejectsWith(host.invokeAction('list_polls', {}), 'ERR_ACTION_NO_HANDLER');
    const remove = host.svc.actions.handle('list_polls', () => 1);
    expect(await host.invokeAction('list_polls', {})).toBe(1);
    remove();
    await rejectsWith(host.invokeAction('list_polls', {}), 'ERR_ACTION_NO_HANDLER');
  });

  test('a handler that throws rejects ERR_ACTION_FAILED with its message', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    host.svc.actions.handle('list_polls', () => {
      throw new Error('database down');
    });
    const error = await rejectsWith(host.invokeAction('list_polls', {}), 'ERR_ACTION_FAILED');
    expect(error.message).toMatch(/database down/);
  });

  test('an output that does not fit output_schema rejects ERR_ACTION_FAILED', async () => {
    const manifest = exchangeManifest();
    manifest.actions[0].output_schema = {
      type: 'object',
      properties: { polls: { type: 'array' } },
      required: ['polls'],
    };
    const host = createMockHost({ manifest });
    host.svc.actions.handle('list_polls', () => ({ items: [] }));
    await rejectsWith(host.invokeAction('list_polls', {}), 'ERR_ACTION_FAILED');
  });

  test('assertActionsHandled names declared actions without a handler and handlers of undeclared ones', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    host.svc.actions.handle('list_polls', () => null);
    host.svc.actions.handle('create_pol', () => null);
    // The client announces its handlers to the host as a message: let it arrive.
    await host.flush();
    expect(() => host.assertActionsHandled()).toThrow(/create_poll, delete_poll, close_poll.*create_pol\b/);
    for (const name of ['create_poll', 'delete_poll', 'close_poll']) host.svc.actions.handle(name, () => null);
    await host.flush();
    expect(() => host.assertActionsHandled()).toThrow(/create_pol\b/);
    // Asked before the announcement arrived: the answer says to flush first, not only that handlers are missing.
    const early = createMockHost({ manifest: exchangeManifest() });
    for (const name of ['list_polls', 'create_poll', 'delete_poll', 'close_poll'])
      early.svc.actions.handle(name, () => null);
    expect(() => early.assertActionsHandled()).toThrow(/await host\.flush\(\) before this check/);
    await early.flush();
    expect(() => early.assertActionsHandled()).not.toThrow();
  });

  test('an elicit answer that does not fit the schema rejects ERR_MOCK_BAD_ANSWER, not a retriable host error', async () => {
    const host = createMockHost({ manifest: exchangeManifest(), answers: { elicit: () => 42 } });
    host.svc.actions.handle('list_polls', async () => {
      const error = await host.svc.actions
        .elicit({ prompt: 'Name?', schema: { type: 'string' } })
        .catch((e: { code: string; retriable: boolean; message: string }) => e);
      const { code, retriable, message } = error as { code: string; retriable: boolean; message: string };
      return { code, retriable, message };
    });
    expect(await host.invokeAction('list_polls', {})).toEqual({
      code: 'ERR_MOCK_BAD_ANSWER',
      retriable: false,
      message:
        'svc.actions.elicit(): answers.elicit returned 42, which does not fit the schema the app asked with ($ must be a string; got 42); return a value that fits it, or null for a refusal.',
    });
  });

  test("the test's answers get the host's signal, which aborts when the host closes", async () => {
    let signal: AbortSignal | undefined;
    const host = createMockHost({
      manifest: exchangeManifest(),
      answers: {
        confirm: (_request, options) => {
          signal = options?.signal;
          return new Promise(() => {});
        },
      },
    });
    const asked = host.svc.ui.confirm({ title: 'Delete?', body: 'The poll goes.' }).catch((e) => e.code);
    await host.flush();
    expect(signal?.aborted).toBe(false);
    host.close();
    expect(await asked).toBe('ERR_DISCONNECTED');
    expect(signal?.aborted).toBe(true);
    // An elicit sheet of an invocation no invoker can cancel closes with the page that asked.
    let sheet: AbortSignal | undefined;
    const other = createMockHost({
      manifest: exchangeManifest(),
      answers: {
        elicit: ({ signal }) => {
          sheet = signal;
          return new Promise(() => {});
        },
      },
    });
    other.svc.actions.handle('list_polls', () =>
      other.svc.actions.elicit({ prompt: 'Name?', schema: { type: 'string' } }),
    );
    const invoked = other.invokeAction('list_polls', {}).catch((e) => e.code);
    await expect.poll(() => sheet).toBeDefined();
    other.close();
    await invoked;
    expect(sheet?.aborted).toBe(true);
  });

  test('elicit answers from answers.elicit (null when refused); progress messages are recorded', async () => {
    const elicit = vi.fn(({ prompt }: { prompt: string }) => (prompt.includes('name') ? 'Team lunch' : null));
    const host = createMockHost({ manifest: exchangeManifest(), answers: { elicit } });
    host.svc.actions.handle('list_polls', async () => {
      host.svc.actions.progress('asking');
      const name = await host.svc.actions.elicit({ prompt: 'Poll name?', schema: { type: 'string' } });
      const other = await host.svc.actions.elicit({ prompt: 'Anything else?', schema: { type: 'string' } });
      host.svc.actions.progress('done');
      return { name, other };
    });
    expect(await host.invokeAction('list_polls', {})).toEqual({ name: 'Team lunch', other: null });
    // Without the invoker's signal, the asking page's: the sheet closes when the page is gone.
    expect(elicit.mock.calls[0]![0]).toEqual({
      prompt: 'Poll name?',
      schema: { type: 'string' },
      action: 'list_polls',
      signal: expect.any(AbortSignal),
    });
    await host.flush();
    expect(host.progress).toEqual([
      { action: 'list_polls', message: 'asking' },
      { action: 'list_polls', message: 'done' },
    ]);
  });

  test('elicit and progress outside an invocation fail with ERR_NO_INVOCATION', async () => {
    const host = createMockHost({ manifest: exchangeManifest() });
    await rejectsWith(host.svc.actions.elicit({ prompt: 'x', schema: {} }), 'ERR_NO_INVOCATION');
    expect(() => host.svc.actions.progress('x')).toThrow(expect.objectContaining({ code: 'ERR_NO_INVOCATION' }));
  });
});
