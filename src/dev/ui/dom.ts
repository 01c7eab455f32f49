import { redactSecrets } from '../redactSecrets';

/** Attributes of {@link h}: `on*` functions become listeners, `data-*`/others become attributes. */
export type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;
/** What {@link h} accepts as children. */
export type Child = Node | string | number | false | null | undefined | Child[];

/**
 * Builds an element: `h('button', { onclick, 'data-testid': 'x' }, 'Label')`. Text is always set as text, never as
 * HTML, so nothing the app sends (titles, toasts, card bodies) can inject markup into the messenger.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'value' && 'value' in el) (el as HTMLInputElement).value = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Shows anything that looks like a token as redacted, in keys too: the page never shows a usable credential. */
export function redactTokens(value: unknown): unknown {
  return redactSecrets(JSON.parse(JSON.stringify(value ?? null, (_k, v) => (v instanceof Blob ? '[Blob]' : v))));
}

/** A button that copies `text` to the clipboard and says so. */
export function copyButton(text: string, label = 'Copy', caption = 'Copy'): HTMLButtonElement {
  const button = h('button', { class: 'small', 'data-testid': 'copy', 'aria-label': label }, caption);
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(text).then(
      () => (button.textContent = 'Copied'),
      () => (button.textContent = 'Copy failed: select the text'),
    );
  });
  return button;
}
