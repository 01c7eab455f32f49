import { signal } from '@preact/signals';

interface Toast {
  id: number;
  message: string;
  kind: string;
}

const shown = signal<Toast[]>([]);
let next = 0;

/** Shows a passing message (6 s), as a messenger's banner: `info`, `success`, `warn` or `error`. */
export function toast(message: string, kind = 'info'): void {
  const id = ++next;
  shown.value = [...shown.value, { id, message, kind }];
  setTimeout(() => {
    shown.value = shown.value.filter((t) => t.id !== id);
  }, 6000);
}

/** The toasts on screen, newest last; read out as they come (a status region). */
export function Toasts() {
  return (
    <div class="toasts" role="status" data-testid="toasts">
      {shown.value.map((t) => (
        <div key={t.id} class={`toast ${t.kind}`} data-testid="toast">
          {t.message}
        </div>
      ))}
    </div>
  );
}
