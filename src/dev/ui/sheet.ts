import { type Child, h } from './dom';

/**
 * Shows a modal sheet and resolves with the button the person pressed (each button's value), the way a
 * messenger's native sheet would. Sheets queue: one at a time, in order.
 */
let queue: Promise<unknown> = Promise.resolve();

export interface SheetButton<T> {
  label: string;
  value: T | (() => T);
  primary?: boolean;
  testid: string;
}

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
        // A cancelled invocation's sheet closes (or never opens) with the first button's answer, the refusal.
        const refuse = () => {
          scrim.remove();
          resolve(buttons[0]!.value as T);
        };
        const error = h('div', { class: 'err', 'data-testid': `${testid}-error` });
        const choose = (button: SheetButton<T>) => {
          try {
            const value = typeof button.value == 'function' ? (button.value as () => T)() : button.value;
            scrim.remove();
            resolve(value);
          } catch (e) {
            error.textContent = (e as Error).message;
          }
        };
        const scrim = h(
          'div',
          { class: 'scrim' },
          h(
            'div',
            { class: 'sheet', role: 'dialog', 'aria-label': title, 'data-testid': testid },
            h('h3', {}, title),
            ...body,
            error,
            h(
              'div',
              { class: 'buttons' },
              ...buttons.map((b) =>
                h(
                  'button',
                  { class: b.primary ? 'primary' : undefined, 'data-testid': b.testid, onclick: () => choose(b) },
                  b.label,
                ),
              ),
            ),
          ),
        );
        if (signal?.aborted) return refuse();
        signal?.addEventListener('abort', refuse, { once: true });
        document.body.append(scrim);
      }),
  );
  queue = shown.catch(() => {});
  return shown;
}
