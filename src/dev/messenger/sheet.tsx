import { signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** One button of a {@link sheet}: the first one declines (Escape presses it). */
export interface SheetButton<T> {
  label: string;
  /** The sheet's answer; a function may throw to keep the sheet open with its message shown inline. */
  value: T | (() => T);
  primary?: boolean;
  danger?: boolean;
  /**
   * Pressing it gives the app what the person must mean (a permission, a message sent or shared in their name): the
   * focus starts on the declining button, so that an app cannot time its prompt to a key meant for the app and have
   * it allowed (a11y47 F2).
   */
  consent?: boolean;
  testid: string;
}

/** The sheet on screen: what it shows, and how it answers. */
interface OpenSheet {
  testid: string;
  title: string;
  body: ComponentChildren;
  buttons: SheetButton<unknown>[];
  choose(button: SheetButton<unknown>): void;
}

const current = signal<OpenSheet | undefined>(undefined);
const error = signal('');
let queue: Promise<unknown> = Promise.resolve();

/**
 * An app that asks again and again (a loop around `svc.ui.confirm`) would hold the messenger, its page behind inert:
 * from the app's third sheet in a row, each opening within {@link REPEAT_MS} of the last one closing, the sheet also
 * offers to close the app. Set by the messenger while an app runs.
 */
let appExit: { label: string; close(): void } | undefined;
const REPEAT_MS = 5000;
let appSheetsInARow = 0;
let appSheetClosedAt = 0;

/** How the app's sheets offer to close it (its name, and the messenger's close); undefined while none runs. */
export function offerAppExit(exit: typeof appExit): void {
  appExit = exit;
  // An app opened again starts afresh: its first sheets are plain ones.
  appSheetsInARow = 0;
}

/**
 * Shows a modal sheet and resolves with the button the person pressed (each button's value), the way a
 * messenger's native sheet would. Sheets queue: one at a time, in order.
 *
 * A modal dialog: `aria-modal`, focus moved into it and given back on close, Escape presses the first (declining)
 * button, and the page behind (the app's frame included) is inert, so no key or click reaches it. `signal` (an
 * invocation's) closes it with the first button's answer when the invocation is cancelled. `byApp`: the app's own
 * call asks (see {@link offerAppExit}).
 */
export function sheet<T>(
  testid: string,
  title: string,
  body: ComponentChildren,
  buttons: SheetButton<T>[],
  signal?: AbortSignal,
  byApp = false,
): Promise<T> {
  const shown = queue.then(
    () => new Promise<T>((resolve) => show({ testid, title, body, buttons }, resolve, signal, byApp)),
  );
  queue = shown.catch(() => {});
  return shown;
}

/**
 * The buttons of an app's sheet as it opens, with "Close <app>" after the declining one once the app asks again and
 * again: pressed, it closes the app and declines (the app's other queued sheets then never open).
 */
function withExit<T>(buttons: SheetButton<T>[]): SheetButton<T>[] {
  appSheetsInARow = Date.now() - appSheetClosedAt < REPEAT_MS ? appSheetsInARow + 1 : 1;
  const exit = appExit;
  const [refuse, ...rest] = buttons;
  if (appSheetsInARow < 3 || !exit || !refuse) return buttons;
  const close = () => {
    exit.close();
    return typeof refuse.value === 'function' ? (refuse.value as () => T)() : refuse.value;
  };
  return [refuse, { label: exit.label, value: close, testid: 'sheet-close-app' }, ...rest];
}

function show<T>(
  sheet: Omit<OpenSheet, 'choose' | 'buttons'> & { buttons: SheetButton<T>[] },
  resolve: (value: T) => void,
  signal: AbortSignal | undefined,
  byApp: boolean,
): void {
  const refusal = sheet.buttons[0]!.value as T;
  // A cancelled invocation's sheet never opens: the first button's answer, the refusal.
  if (signal?.aborted) {
    resolve(refusal);
    return;
  }
  const active = document.activeElement as HTMLElement | null;
  // A sheet queued behind one just closed starts while the focus may still be in that one's (going) sheet: it gives
  // the focus back where that one did.
  const before = active?.closest('.scrim') ? givenBack : active;
  const behind = document.getElementById('messenger');
  let closed = false;
  const close = (value: T) => {
    closed = true;
    if (byApp) appSheetClosedAt = Date.now();
    signal?.removeEventListener('abort', refuse);
    current.value = undefined;
    if (behind) behind.inert = false;
    giveFocusBack(before);
    resolve(value);
  };
  // A cancelled invocation's open sheet closes with the refusal.
  const refuse = () => close(refusal);
  const choose = (button: SheetButton<unknown>) => {
    try {
      close(typeof button.value === 'function' ? (button.value as () => T)() : (button.value as T));
    } catch (e) {
      error.value = (e as Error).message;
    }
  };
  signal?.addEventListener('abort', refuse, { once: true });
  const buttons = byApp ? withExit(sheet.buttons) : sheet.buttons;
  error.value = '';
  if (behind) behind.inert = true;
  // The sheet shows two frames after the page behind went inert. The browser sends a click to the app's frame (a
  // process of its own) by where it last saw that frame, not by the page's elements; until a frame drawn with the page
  // inert has reached it, a click on a sheet button over the app's frame went to the app, and the sheet never heard it.
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if (!closed) current.value = { ...sheet, buttons: buttons as SheetButton<unknown>[], choose };
    }),
  );
}

/** Where the last sheet closed gave the focus back. */
let givenBack: HTMLElement | null = null;

/**
 * Gives the focus back to what had it before a sheet opened. Firefox does not move the focus into the app's frame (a
 * process of its own) in the task that made the page behind usable again when a key closed the sheet: the focus
 * stayed on the sheet's button and fell to the page's body when the sheet went, so the next Tab started at the top
 * of the messenger. Then it is given back in the next task, unless something else took it meanwhile.
 */
function giveFocusBack(before: HTMLElement | null): void {
  givenBack = before;
  // Its ring drawn: Firefox drew none on a control given the focus back by a script after Escape closed the sheet.
  const visibly = { focusVisible: true };
  before?.focus?.(visibly);
  if (!before || document.activeElement === before) return;
  setTimeout(() => {
    // Not while the next sheet is open, nor once the person has put the focus somewhere of the page.
    const now = document.activeElement;
    if (before.isConnected && !current.value && (!now || now === document.body || now.closest('.scrim')))
      before.focus?.(visibly);
  });
}

/** Where the open sheet shows: outside the messenger's root, which is inert while a sheet is open. */
export function SheetHost() {
  const open = current.value;
  return open ? <Sheet key={open} sheet={open} /> : null;
}

/** The buttons, fields and links a Tab reaches in the sheet, in order. */
const focusables = (el: HTMLElement) =>
  [...el.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], summary')].filter(
    (e) => !(e as HTMLButtonElement).disabled && e.getClientRects().length > 0,
  );

/**
 * The keys of a modal dialog, listened to on the document, so that they work wherever focus is (on the page's body
 * after a click on the sheet's text, say): Escape presses the first (declining) button, Enter in a text field the main
 * one, and Tab and Shift+Tab go round the sheet's controls instead of leaving it.
 */
function useSheetKeys(dialog: { current: HTMLDivElement | null }, sheet: OpenSheet): void {
  // Listening from the same commit as the focus moves into the sheet: a key pressed as soon as the sheet's button
  // had the focus (a person's quick Escape, a test's) went before an effect's listener was there, and was lost.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        sheet.choose(sheet.buttons[0]!);
        return;
      }
      const el = dialog.current;
      // Enter in a text field answers with the main button, as a form submits (not a destructive one, which takes a
      // click or a Tab to it, nor in a text area, where Enter is a new line).
      const field = event.target;
      if (event.key === 'Enter' && !event.isComposing && field instanceof HTMLInputElement && el?.contains(field)) {
        const main = sheet.buttons.find((b) => b.primary && !b.danger);
        if (main && !/^(?:checkbox|radio|button|submit|reset|file)$/.test(field.type)) {
          event.preventDefault();
          sheet.choose(main);
        }
        return;
      }
      if (event.key !== 'Tab' || !el) return;
      const all = focusables(el);
      const at = all.indexOf(document.activeElement as HTMLElement);
      const edge = event.shiftKey
        ? at <= 0
          ? all.at(-1)
          : undefined
        : at === all.length - 1 || at < 0
          ? all[0]
          : undefined;
      if (!edge) return;
      event.preventDefault();
      edge.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [sheet]);
}

function Sheet({ sheet }: { sheet: OpenSheet }) {
  const dialog = useRef<HTMLDivElement>(null);
  // The first field when there is one to fill, else the main button; for a destructive choice or a consent the
  // declining one, so that Enter pressed out of habit undoes nothing and allows nothing.
  useLayoutEffect(() => {
    const el = dialog.current!;
    const declining = el.querySelector('.buttons .danger') || sheet.buttons.some((b) => b.consent);
    const first =
      el.querySelector<HTMLElement>('input, select, textarea') ??
      el.querySelector<HTMLElement>(declining ? '.buttons button' : '.buttons button.primary') ??
      el.querySelector<HTMLElement>('button');
    first?.focus();
  }, []);
  // A refused answer: the field it is about takes the focus.
  useLayoutEffect(() => {
    if (error.value) dialog.current!.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
  }, [error.value]);
  useSheetKeys(dialog, sheet);
  const titleId = `${sheet.testid}-title`;
  return (
    <div class="scrim">
      <div
        ref={dialog}
        class="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={`${sheet.testid}-body`}
        data-testid={sheet.testid}
        tabIndex={-1}
      >
        {/* An app's title may be in any language: laid out in its own direction. */}
        <h2 id={titleId} dir="auto">
          {sheet.title}
        </h2>
        {/* Read with the title when the sheet opens: the focus goes to a button, which would be read alone. */}
        <div id={`${sheet.testid}-body`}>{sheet.body}</div>
        <div class="err" role="alert" id={`${sheet.testid}-error`} data-testid={`${sheet.testid}-error`}>
          {error.value}
        </div>
        <div class="buttons">
          {sheet.buttons.map((b) => (
            <button
              type="button"
              key={b.testid}
              class={b.danger ? 'primary danger' : b.primary ? 'primary' : undefined}
              data-testid={b.testid}
              onClick={() => sheet.choose(b)}
            >
              {b.label}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
