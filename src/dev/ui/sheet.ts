import { type Child, h } from './dom';

/** One button of a {@link sheet}: the first one declines (Escape presses it). */
export interface SheetButton<T> {
  label: string;
  /** The sheet's answer; a function may throw to keep the sheet open with its message shown inline. */
  value: T | (() => T);
  primary?: boolean;
  danger?: boolean;
  testid: string;
}

let queue: Promise<unknown> = Promise.resolve();
let sheets = 0;

/**
 * Shows a modal sheet and resolves with the button the person pressed (each button's value), the way a
 * messenger's native sheet would. Sheets queue: one at a time, in order.
 *
 * A modal dialog: `aria-modal`, focus moved into it and given back on close, Escape presses the first (declining)
 * button, and the page behind (the app's frame included) is inert, so no key or click reaches it. `signal` (an
 * invocation's) closes it with the first button's answer when the invocation is cancelled.
 */
export function sheet<T>(
  testid: string,
  title: string,
  body: Child[],
  buttons: SheetButton<T>[],
  signal?: AbortSignal,
): Promise<T> {
  const shown = queue.then(
    () =>
      new Promise<T>((resolve) => {
        // A cancelled invocation's sheet never opens: the first button's answer, the refusal.
        if (signal?.aborted) return resolve(buttons[0]!.value as T);
        const error = h('div', { class: 'err', role: 'alert', 'data-testid': `${testid}-error` });
        const before = document.activeElement as HTMLElement | null;
        const behind = document.getElementById('messenger');
        const close = (value: T) => {
          signal?.removeEventListener('abort', refuse);
          scrim.remove();
          sheets -= 1;
          if (behind && sheets === 0) behind.inert = false;
          before?.focus?.();
          resolve(value);
        };
        // A cancelled invocation's open sheet closes with the refusal.
        const refuse = () => close(buttons[0]!.value as T);
        const choose = (button: SheetButton<T>) => {
          try {
            close(typeof button.value === 'function' ? (button.value as () => T)() : button.value);
          } catch (e) {
            error.textContent = (e as Error).message;
            (dialog.querySelector('[aria-invalid=true]') as HTMLElement | null)?.focus();
          }
        };
        const titleId = `${testid}-title`;
        const dialog = h(
          'div',
          {
            class: 'sheet',
            role: 'dialog',
            'aria-modal': 'true',
            'aria-labelledby': titleId,
            'data-testid': testid,
            onkeydown: (event) => {
              if ((event as KeyboardEvent).key !== 'Escape') return;
              event.preventDefault();
              choose(buttons[0]!);
            },
          },
          h('h3', { id: titleId }, title),
          ...body,
          error,
          h(
            'div',
            { class: 'buttons' },
            ...buttons.map((b) =>
              h(
                'button',
                {
                  class: b.danger ? 'primary danger' : b.primary ? 'primary' : undefined,
                  'data-testid': b.testid,
                  onclick: () => choose(b),
                },
                b.label,
              ),
            ),
          ),
        );
        const scrim = h('div', { class: 'scrim' }, dialog);
        signal?.addEventListener('abort', refuse, { once: true });
        document.body.append(scrim);
        sheets += 1;
        if (behind) behind.inert = true;
        // The first field when there is one to fill, else the main button.
        const first =
          dialog.querySelector<HTMLElement>('input, select, textarea') ??
          dialog.querySelector<HTMLElement>('.buttons button.primary') ??
          dialog.querySelector<HTMLElement>('button');
        first?.focus();
      }),
  );
  queue = shown.catch(() => {});
  return shown;
}
