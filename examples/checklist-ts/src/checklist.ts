// Checklist: a mini app in TypeScript that keeps its items in svc.storage, renders them into the page, follows the
// host's theme, and lets an agent add items. Written against the `Svc` type so tests pass a mock host's svc.
import type { Svc } from 'svc-sdk';

export interface Checklist {
  /** Loads the saved items and renders them. */
  start(): Promise<void>;
  /** Adds an item, saves, renders. */
  add(text: string): Promise<string[]>;
  readonly items: readonly string[];
}

export function createChecklist(svc: Svc, root: HTMLElement): Checklist {
  let items: string[] = [];

  // Registered synchronously, before any await: an agent may invoke it as soon as the app loads.
  svc.actions.handle('add_item', async (input) => ({ items: await add((input as { text: string }).text) }));

  const render = () => {
    root.dataset.theme = svc.app.theme;
    root.replaceChildren(...items.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
  };
  svc.app.onThemeChange(render);

  async function add(text: string): Promise<string[]> {
    items = [...items, text.trim()];
    await svc.storage.set('items', items);
    render();
    svc.ui.toast({ message: `Added “${text.trim()}”`, kind: 'success' });
    return items;
  }

  return {
    async start() {
      const saved = await svc.storage.get('items');
      items = Array.isArray(saved) ? saved.filter((x): x is string => typeof x === 'string') : [];
      svc.ui.setTitle(`Checklist (${items.length})`);
      render();
    },
    add,
    get items() {
      return items;
    },
  };
}
