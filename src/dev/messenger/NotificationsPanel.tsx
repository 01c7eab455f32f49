import { control } from './api';
import type { Messenger } from './Messenger';

/** The notification tray: opening one marks it read and opens its deep link in the app. */
export function NotificationsPanel({ m }: { m: Messenger }) {
  const user = m.store.slices.settings.value.current_user_id;
  const mine = m.store.slices.notifications.value.filter((n) => n.user_id === user).reverse();
  return (
    <div data-testid="notifications">
      {mine.length ? null : <p class="note">No notification.</p>}
      {mine.map((n) => (
        <div key={n.id} class={`action ${n.read ? '' : 'unread'}`} data-testid="notification">
          <strong>{n.read ? n.title : `● ${n.title}`}</strong>
          <p>{n.body}</p>
          <button
            type="button"
            onClick={() => {
              void control('POST /__svc/notifications/read', { id: n.id });
              m.openLink(n.deep_link);
            }}
          >
            {`Open ${n.deep_link}`}
          </button>
        </div>
      ))}
    </div>
  );
}
