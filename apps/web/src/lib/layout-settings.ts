import { useSyncExternalStore } from 'react';
import {
  DEFAULT_LAYOUT_SETTINGS,
  LAYOUT_SETTING_CHECKS,
  type LayoutSettings,
} from '@liftlink/protocol';
import { http } from './http.ts';
import { hasToken } from './token.ts';

/**
 * The stored layout settings of spec section 3, defaults of section 9. Kept in this
 * browser (localStorage) and in the user's profile (`settings`), the profile winning
 * when the user info loads.
 */
const KEY = 'liftlink.layout';

/** Keeps the valid fields of any object, fills the rest with defaults. */
export function normalizeSettings(value: unknown): LayoutSettings {
  const out: LayoutSettings = { ...DEFAULT_LAYOUT_SETTINGS };
  if (!value || typeof value !== 'object') return out;
  // The protocol's plain checks (the schema's rules without zod: no zod at start-up).
  for (const key of Object.keys(LAYOUT_SETTING_CHECKS) as (keyof LayoutSettings)[]) {
    const given = (value as Record<string, unknown>)[key];
    if (LAYOUT_SETTING_CHECKS[key](given)) (out as Record<string, unknown>)[key] = given;
  }
  return out;
}

function readStored(): LayoutSettings {
  try {
    const raw = localStorage.getItem(KEY);
    return normalizeSettings(raw ? JSON.parse(raw) : null);
  } catch {
    return { ...DEFAULT_LAYOUT_SETTINGS };
  }
}

let settings: LayoutSettings = readStored();
const listeners = new Set<() => void>();

function publish(next: LayoutSettings): void {
  settings = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the settings still apply to this page.
  }
  for (const listener of listeners) listener();
}

export function getLayoutSettings(): LayoutSettings {
  return settings;
}

/** Applies the profile's settings (after the user info loads). */
export function adoptProfileSettings(profile: unknown): void {
  if (!profile || typeof profile !== 'object' || Object.keys(profile).length === 0) return;
  publish(normalizeSettings({ ...settings, ...profile }));
}

let saveTimer: number | undefined;

/** Changes settings now and saves them to the profile shortly after (one call per burst). */
export function updateLayoutSettings(patch: Partial<LayoutSettings>): void {
  publish(normalizeSettings({ ...settings, ...patch }));
  if (!hasToken()) return;
  window.clearTimeout(saveTimer);
  saveTimer = window.setTimeout(() => {
    void http.post('/auth/access/account/profile/update', { settings }).catch(() => undefined);
  }, 600);
}

export function resetLayoutSettings(): void {
  updateLayoutSettings({ ...DEFAULT_LAYOUT_SETTINGS });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLayoutSettings(): LayoutSettings {
  return useSyncExternalStore(subscribe, () => settings);
}
