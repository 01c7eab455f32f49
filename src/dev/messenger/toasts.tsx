import { signal } from '@preact/signals';

interface Toast {
  id: number;
  message: string;
  kind: string;
}

const shown = signal<Toast[]>([]);
let next = 0;
/** While the pointer is on a toast, none leaves: the person is reading one. */
let held = false;

/**
 * Shows a passing message, as a messenger's banner: `info`, `success`, `warn` or `error`. It stays 6 s, longer for a
 * long one (a slow reader's pace), and as long as the pointer is on the toasts.
 */
export function toast(message: string, kind = 'info'): void {
  const id = ++next;
  shown.value = [...shown.value, { id, message, kind }];
  const leave = () => {
    if (held) setTimeout(leave, 1000);
    else shown.value = shown.value.filter((t) => t.id !== id);
  };
  setTimeout(leave, Math.max(6000, message.length * 60));
}

const List = ({ toasts }: { toasts: Toast[] }) => (
  <>
    {toasts.map((t) => (
      <div key={t.id} class={`toast ${t.kind}`} data-testid="toast">
        {t.message}
      </div>
    ))}
  </>
);

/** The toasts on screen, newest last; read out as they come: an error at once (an alert), the others politely. */
export function Toasts() {
  const errors = shown.value.filter((t) => t.kind === 'error');
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the pointer's hover only holds the toasts on screen
    <div class="toasts" data-testid="toasts" onMouseEnter={() => (held = true)} onMouseLeave={() => (held = false)}>
      <div role="status">
        <List toasts={shown.value.filter((t) => t.kind !== 'error')} />
      </div>
      <div role="alert">
        <List toasts={errors} />
      </div>
    </div>
  );
}
