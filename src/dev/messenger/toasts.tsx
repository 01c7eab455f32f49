import { signal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';

interface Toast {
  id: number;
  message: string;
  kind: string;
  /** Already read out elsewhere (the notice above the timeline says it too): shown, not read out again. */
  said?: boolean;
}

const shown = signal<Toast[]>([]);
let next = 0;
/** While the pointer is on a toast, or the keyboard's focus (on a Dismiss button), none leaves: the person is on one. */
const held = { pointer: false, focus: false };
/** What had the focus before it came to the toasts: it goes back there when the toast it was on goes. */
let focusedBefore: HTMLElement | null = null;

/** Error toasts kept at once: older ones go (the terminal, the Calls and Blocked tabs keep them all). */
const ERRORS_KEPT = 3;

/**
 * Shows a passing message, as a messenger's banner: `info`, `success`, `warn` or `error`. It stays 6 s, longer for a
 * long one (a slow reader's pace), and as long as the pointer or the focus is on the toasts; an error has a Dismiss
 * button, and the latest {@link ERRORS_KEPT} are shown. What must stay until it is mended (an invalid manifest) is said
 * in the notice above the timeline too: a toast that stayed would cover the app. `said` when a live region on the page
 * (that notice) reads the same text out: a screen reader then hears it once.
 */
export function toast(message: string, kind = 'info', said = false): void {
  const id = ++next;
  const errors = shown.value.filter((t) => t.kind === 'error');
  const dropped = kind === 'error' ? errors.slice(0, Math.max(0, errors.length - ERRORS_KEPT + 1)) : [];
  shown.value = [...shown.value.filter((t) => !dropped.includes(t)), { id, message, kind, said }];
  const leave = () => {
    if (held.pointer || held.focus) setTimeout(leave, 1000);
    else dismiss(id);
  };
  setTimeout(leave, Math.min(30_000, Math.max(6000, message.length * 60)));
}

const dismiss = (id: number) => {
  // The focus on the toast that goes would fall to the page's body: the next toast's Dismiss takes it, else what had it.
  const inIt = document.activeElement?.closest(`[data-toast="${id}"]`);
  shown.value = shown.value.filter((t) => t.id !== id);
  if (!inIt) return;
  const next = document.querySelector<HTMLElement>(`.toast:not([data-toast="${id}"]) [data-testid=toast-dismiss]`);
  (next ?? (focusedBefore?.isConnected ? focusedBefore : null))?.focus();
};

/**
 * A toast long enough to scroll in its box (a quarter of a narrow window) is a Tab stop, so that a keyboard scrolls
 * it in every engine (an error toast has its Dismiss button for that).
 */
const scrollable = (message: string) =>
  message.length >= 200 || message.split('\n').length >= 6 ? { tabIndex: 0 } : {};

// The count the page puts after a text it cut: the page's English, whatever the text's direction.
const CUT = /… \(\d+ more characters?\)$/;

/**
 * An app's text, with the count of what the page cut from it isolated as left-to-right: after Arabic or Hebrew it
 * read "(more characters 1889) …".
 */
function Message({ text }: { text: string }) {
  const cut = CUT.exec(text);
  if (!cut) return <>{text}</>;
  return (
    <>
      {text.slice(0, cut.index)}
      <bdi dir="ltr">{cut[0]}</bdi>
    </>
  );
}

/** Escape, outside a sheet (whose own Escape declines it), dismisses the toasts: none need the focus moved to go. */
function onEscape(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || event.defaultPrevented || !shown.value.length || document.querySelector('.scrim'))
    return;
  for (const t of shown.value) dismiss(t.id);
}

/**
 * A control the focus came to that the toasts cover is scrolled clear of them, the next frame (after the browser's
 * own scroll, which takes no account of them).
 */
function onFocus(event: FocusEvent): void {
  const target = event.target;
  // Not the app's frame, taller than the room above the toasts: the page would jump for nothing it could clear.
  if (!(target instanceof HTMLElement) || target instanceof HTMLIFrameElement || !shown.value.length) return;
  if (target.closest('.toasts')) return;
  requestAnimationFrame(() => {
    const tops = [...document.querySelectorAll('.toast')].map((t) => t.getBoundingClientRect().top);
    if (target.getBoundingClientRect().bottom > Math.min(...tops)) target.scrollIntoView({ block: 'nearest' });
  });
}

/**
 * Keeps the page's scrollers from leaving the focused control under the toasts: their height is the bottom of the
 * area a control is scrolled into (`scroll-padding-bottom`, the `--toasts` property), and a control the focus comes to
 * under them is scrolled clear. A long toast over a narrow window (320 px, or zoomed in) hid the control the keyboard
 * was on.
 */
function useToastRoom(box: { current: HTMLElement | null }): void {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = box.current?.getBoundingClientRect().height ?? 0;
      root.style.setProperty('--toasts', `${height ? Math.ceil(height) + 14 : 0}px`);
    });
    observer.observe(box.current!);
    document.addEventListener('keydown', onEscape);
    document.addEventListener('focusin', onFocus);
    return () => {
      observer.disconnect();
      document.removeEventListener('keydown', onEscape);
      document.removeEventListener('focusin', onFocus);
    };
  }, []);
}

/**
 * The toasts on screen, newest last; read out as they come: the others politely, from a region that is there before
 * they are, and each error at once, as an alert of its own that holds its text alone (its Dismiss button is beside
 * it, not read out as part of the message). Escape dismisses them; the focused control is kept clear of them.
 */
export function Toasts() {
  const box = useRef<HTMLElement>(null);
  useToastRoom(box);
  return (
    // A landmark of its own, beside the page's: a toast is no part of a room or a panel.
    <section
      ref={box}
      class="toasts"
      aria-label="Notices"
      data-testid="toasts"
      onMouseEnter={() => (held.pointer = true)}
      onMouseLeave={() => (held.pointer = false)}
      onFocusIn={(e) => {
        if (!held.focus) focusedBefore = e.relatedTarget as HTMLElement | null;
        held.focus = true;
      }}
      onFocusOut={(e) => (held.focus = e.currentTarget.contains(e.relatedTarget as Node | null))}
    >
      {/* A status reads out its whole text on each change: each toast is read once, as it comes, not the others again. */}
      <div role="status" aria-atomic="false">
        {shown.value
          .filter((t) => t.kind !== 'error')
          .map((t) => (
            <div key={t.id} class={`toast ${t.kind}`} data-testid="toast" dir="auto" {...scrollable(t.message)}>
              <Message text={t.message} />
            </div>
          ))}
      </div>
      <div>
        {shown.value
          .filter((t) => t.kind === 'error')
          .map((t) => (
            <div key={t.id} class="toast error" data-testid="toast" data-toast={t.id}>
              <div role={t.said ? undefined : 'alert'} dir="auto">
                <Message text={t.message} />
              </div>
              <button type="button" class="small" data-testid="toast-dismiss" onClick={() => dismiss(t.id)}>
                Dismiss
              </button>
            </div>
          ))}
      </div>
    </section>
  );
}
