/// <reference types="vitest/globals" />
// One test file, two runners: Jest (with @swc/jest and the jsdom environment) and Vitest (jsdom), both with
// `describe`/`it`/`expect` as globals. The app runs against svc-sdk/mock, whose host enforces the platform's rules.
import { createMockHost, type MockHost } from 'svc-sdk/mock';
import manifest from '../manifest.json';
import { createChecklist } from '../src/checklist';

describe('checklist', () => {
  let host: MockHost;
  let root: HTMLElement;
  beforeEach(() => {
    host = createMockHost({ manifest, theme: 'light' });
    root = document.createElement('ul');
    document.body.append(root);
  });
  afterEach(() => {
    host.close();
    root.remove();
  });

  it('adds an item, saves it in svc.storage and renders it in the page', async () => {
    const app = createChecklist(host.svc, root);
    await app.start();
    await app.add('Buy milk');
    expect(root.querySelectorAll('li')).toHaveLength(1);
    expect(root.textContent).toBe('Buy milk');
    expect(await host.svc.storage.get('items')).toEqual(['Buy milk']);
    await host.flush();
    expect(host.ui.toasts).toEqual([{ message: 'Added “Buy milk”', kind: 'success' }]);
  });

  it('lets an agent add an item through the declared action, input checked against its schema', async () => {
    const app = createChecklist(host.svc, root);
    await app.start();
    await expect(
      host.invokeAction('add_item', { text: 'Call Sam' }, { invoked_by: 'agent', agent_id: 'agent-1' }),
    ).resolves.toEqual({ items: ['Call Sam'] });
    await expect(
      host.invokeAction('add_item', { text: '' }, { invoked_by: 'agent', agent_id: 'agent-1' }),
    ).rejects.toMatchObject({ code: 'ERR_ACTION_INVALID_INPUT' });
    expect(app.items).toEqual(['Call Sam']);
  });

  it('follows the host theme', async () => {
    const app = createChecklist(host.svc, root);
    await app.start();
    host.setTheme('dark');
    await host.flush();
    expect(root.dataset.theme).toBe('dark');
  });
});
