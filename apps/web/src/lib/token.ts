import { TOKEN_LIFETIME_MS } from '@liftlink/protocol';

/**
 * The access token. The server also sets it as an HttpOnly cookie, which scripts cannot
 * read, so the client keeps its own copy: in localStorage when "remember me" is ticked,
 * otherwise in sessionStorage (gone with the browser tab). It is sent as `Access-Token`.
 */
const KEY = 'liftlink.token';

interface StoredToken {
  token: string;
  expiresAt: number;
}

function read(storage: Storage): StoredToken | null {
  try {
    const raw = storage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredToken>;
    if (typeof parsed.token !== 'string' || typeof parsed.expiresAt !== 'number') return null;
    if (parsed.expiresAt <= Date.now()) {
      storage.removeItem(KEY);
      return null;
    }
    return { token: parsed.token, expiresAt: parsed.expiresAt };
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return (read(sessionStorage) ?? read(localStorage))?.token ?? null;
}

export function hasToken(): boolean {
  return getToken() !== null;
}

export function setToken(token: string, expiresAt: string | undefined, remember: boolean): void {
  const parsed = expiresAt ? Date.parse(expiresAt) : NaN;
  const stored: StoredToken = {
    token,
    expiresAt: Number.isFinite(parsed) ? parsed : Date.now() + TOKEN_LIFETIME_MS,
  };
  clearToken();
  (remember ? localStorage : sessionStorage).setItem(KEY, JSON.stringify(stored));
}

export function clearToken(): void {
  localStorage.removeItem(KEY);
  sessionStorage.removeItem(KEY);
}
