import type { Messenger } from './Messenger';
import { time } from './SettingsPanel';

/** Requests the package's policies blocked, each once, with what to change. */
export function BlockedPanel({ m }: { m: Messenger }) {
  const unique = [...new Map(m.blocked.value.map((b) => [`${b.directive} ${b.blocked}`, b])).values()];
  return (
    <div data-testid="blocked-requests">
      {unique.length ? null : <p class="note">No request was blocked.</p>}
      {unique.map((b) => (
        <div key={`${b.directive} ${b.blocked}`} class="action" data-testid="blocked">
          <strong>{b.blocked}</strong>
          <div>{b.advice}</div>
          <div class="note">{`${b.directive} · ${time(b.at)}`}</div>
        </div>
      ))}
    </div>
  );
}
