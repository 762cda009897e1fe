import {
  CSRF_COOKIE,
  CSRF_HEADER,
  FORCED_LOGOUT_RELOAD_MS,
  REQUEST_TIMEOUT_MS,
  TOKEN_HEADER,
  type ApiResponse,
  type FieldIssue,
} from '@liftlink/protocol';
import { clearToken, getToken } from './token.ts';
import { feedback } from './feedback.ts';
import { i18n, translateError } from './i18n/i18n.ts';

/** A failed call: HTTP status, the envelope's code and msg, and its result (issues). */
export class ApiError extends Error {
  /** True when the HTTP client already told the user (401 / 403 notices). */
  handled = false;
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
    readonly result: unknown = null,
  ) {
    super(msg);
    this.name = 'ApiError';
  }

  /** Field errors of a `validation.failed` answer. */
  get issues(): FieldIssue[] {
    const issues = (this.result as { issues?: unknown } | null)?.issues;
    return Array.isArray(issues) ? (issues as FieldIssue[]) : [];
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /**
   * The caller shows its own error: `true` (sign-in, registration) no global 401 / 403
   * notices; `'forbidden'` (user info) no 403 notice, a 401 still ends the session.
   */
  quiet?: boolean | 'forbidden';
  signal?: AbortSignal;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function hasCsrfCookie(): boolean {
  return readCookie(CSRF_COOKIE) !== null;
}

/** GET /auth/Hi sets the XSRF-TOKEN cookie. */
export async function fetchCsrfCookie(): Promise<void> {
  await fetch('/auth/Hi', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
}

function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The page reload, replaceable in tests (jsdom cannot reload). */
export const browserPage = { reload: () => window.location.reload() };

let reloadScheduled = false;

/** Spec section 8: 401 -> notice "Unauthorized"; with a token, logout and reload after 1.5 s. */
function handleUnauthorized(error: ApiError): void {
  const loggedInFlag = (error.result as { isLogin?: unknown } | null)?.isLogin === true;
  if (loggedInFlag) return;
  error.handled = true;
  feedback().notification.error({
    key: 'http.unauthorized',
    title: i18n.t('http.unauthorized'),
    description: i18n.t('http.unauthorizedText'),
  });
  if (getToken() === null || reloadScheduled) return;
  reloadScheduled = true;
  clearToken();
  // The server forgets the session too; its answer does not matter any more.
  void fetch('/auth/access/logout', {
    method: 'POST',
    credentials: 'same-origin',
    headers: csrfHeaders(),
  }).catch(() => undefined);
  window.setTimeout(() => browserPage.reload(), FORCED_LOGOUT_RELOAD_MS);
}

/** Spec section 8: 403 -> notice "Forbidden" with the server's message. */
function handleForbidden(error: ApiError): void {
  error.handled = true;
  feedback().notification.error({
    key: `http.forbidden.${error.code}`,
    title: i18n.t('http.forbidden'),
    description: translateError(error.code, error.message),
  });
}

function csrfHeaders(): Record<string, string> {
  const csrf = readCookie(CSRF_COOKIE);
  return csrf ? { [CSRF_HEADER]: csrf } : {};
}

export async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  // A cookie that expired mid-session is fetched again before the state-changing call.
  if (method === 'POST' && !hasCsrfCookie()) await fetchCsrfCookie().catch(() => undefined);

  const headers: Record<string, string> = { Accept: 'application/json', ...csrfHeaders() };
  const token = getToken();
  if (token) headers[TOKEN_HEADER] = token;
  let body: string | undefined;
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body ?? {});
  }

  const controller = new AbortController();
  const timer = window.setTimeout(
    () => controller.abort(new DOMException('timeout', 'TimeoutError')),
    REQUEST_TIMEOUT_MS,
  );
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let response: Response;
  let text: string;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: controller.signal,
    });
    text = await response.text();
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    const timedOut = controller.signal.aborted;
    throw new ApiError(
      0,
      timedOut ? 'request.timeout' : 'request.network',
      timedOut ? 'Request timed out' : 'Network error',
    );
  } finally {
    window.clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  let envelope: Partial<ApiResponse<T>> | null = null;
  try {
    envelope = text ? (JSON.parse(text) as Partial<ApiResponse<T>>) : null;
  } catch {
    envelope = null;
  }
  if (response.ok && envelope?.success === true) return envelope.result as T;

  const error = new ApiError(
    response.status,
    typeof envelope?.code === 'string'
      ? envelope.code
      : response.status >= 500
        ? 'internal'
        : 'request.failed',
    typeof envelope?.msg === 'string' ? envelope.msg : response.statusText,
    envelope?.result ?? null,
  );
  if (response.status === 401 && options.quiet !== true) handleUnauthorized(error);
  else if (response.status === 403 && !options.quiet) handleForbidden(error);
  throw error;
}

export const http = {
  get: <T>(path: string, query?: Query, options?: Omit<RequestOptions, 'query' | 'body'>) =>
    request<T>('GET', path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
};

/** For tests: forget that a reload is pending. */
export function resetHttpState(): void {
  reloadScheduled = false;
}
