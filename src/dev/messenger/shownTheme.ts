import { computed, type ReadonlySignal, signal } from '@preact/signals';
import type { DevSettings } from '../devContract';

// The system's colour scheme, followed while the page is open: a messenger on 'system' changes with it, as the
// native clients do.
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const systemTheme = signal<'light' | 'dark'>(darkQuery.matches ? 'dark' : 'light');
darkQuery.addEventListener('change', (event) => {
  systemTheme.value = event.matches ? 'dark' : 'light';
});

/** The system's colour scheme now, as a signal (what 'system' shows). */
export const systemColorScheme: ReadonlySignal<'light' | 'dark'> = systemTheme;

/**
 * The theme the page and the app show for a theme setting: the setting itself, or the system's colour scheme while
 * the setting is 'system' (a new state's default).
 */
export function shownTheme(setting: ReadonlySignal<DevSettings>): ReadonlySignal<'light' | 'dark'> {
  return computed(() => {
    const { theme } = setting.value;
    return theme === 'system' ? systemTheme.value : theme;
  });
}
