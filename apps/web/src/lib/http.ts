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
import { feedback, whenFeedbackVisible } from './feedback.ts';
import { onceWithin } from './once-within.ts';
import { i18n, initI18n, translateError } from './i18n/i18n.ts';

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
  /** The request outlives the page (`fetch` keepalive): a last call as the page closes. */
  keepalive?: boolean;
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
  const forcedLogout = getToken() !== null && !reloadScheduled;
  if (forcedLogout) {
    reloadScheduled = true;
    clearToken();
    // The server forgets the session too; its answer does not matter any more.
    void fetch('/auth/access/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: csrfHeaders(),
    }).catch(() => undefined);
  }
  whenTextsReady(() => {
    feedback().notification.error({
      key: 'http.unauthorized',
      title: i18n.t('http.unauthorized'),
      description: i18n.t('http.unauthorizedText'),
    });
    // The 1.5 s are for reading the notice, so they start when it can be seen: a page
    // that meets the 401 as it opens is still loading the notice's chunk.
    if (forcedLogout) {
      whenFeedbackVisible(
        () => window.setTimeout(() => browserPage.reload(), FORCED_LOGOUT_RELOAD_MS),
        NOTICE_WAIT_AT_MOST_MS,
      );
    }
  });
}

/** How long a notice waits for its texts, and a forced logout for its notice, before going on. */
const NOTICE_WAIT_AT_MOST_MS = 10_000;

/**
 * Runs `say` once the user's texts are loaded (at most NOTICE_WAIT_AT_MOST_MS later): a call
 * made as a page opens can fail before they are, and a notice must not show their keys.
 */
function whenTextsReady(say: () => void): void {
  // The usual case: the texts came with the page, and the notice is said at once.
  if (i18n.isInitialized) {
    say();
    return;
  }
  const once = onceWithin(NOTICE_WAIT_AT_MOST_MS, say);
  void initI18n().then(once, once);
}

/** Spec section 8: 403 -> notice "Forbidden" with the server's message. */
function handleForbidden(error: ApiError): void {
  error.handled = true;
  whenTextsReady(() =>
    feedback().notification.error({
      key: `http.forbidden.${error.code}`,
      title: i18n.t('http.forbidden'),
      description: translateError(error.code, error.message),
    }),
  );
}

function csrfHeaders(): Record<string, string> {
  const csrf = readCookie(CSRF_COOKIE);
  return csrf ? { [CSRF_HEADER]: csrf } : {};
}

/** One exchange with the server: what is sent, and how the answer's body is read. */
interface Exchange<R> {
  method: 'GET' | 'POST';
  path: string;
  query?: Query;
  body?: BodyInit;
  contentType?: string;
  /** What the answer may be: the JSON envelope unless told (files). */
  accept?: string;
  quiet?: RequestOptions['quiet'];
  signal?: AbortSignal;
  keepalive?: boolean;
  /** Give up after REQUEST_TIMEOUT_MS; off for files (uploads, exports, backups). */
  timeout: boolean;
  read: (response: Response) => Promise<R>;
}

/**
 * The one transport of the client: CSRF header (fetching the cookie again before a POST
 * when it expired), `Access-Token`, the caller's abort signal, the 50 s time-out, and
 * network failures as ApiError. The body is read inside the time-out.
 */
async function exchange<R>(x: Exchange<R>): Promise<{ response: Response; value: R }> {
  // A cookie that expired mid-session is fetched again before the state-changing call.
  if (x.method === 'POST' && !hasCsrfCookie()) await fetchCsrfCookie().catch(() => undefined);

  const headers: Record<string, string> = {
    Accept: x.accept ?? 'application/json',
    ...csrfHeaders(),
  };
  const token = getToken();
  if (token) headers[TOKEN_HEADER] = token;
  if (x.contentType) headers['Content-Type'] = x.contentType;

  const controller = new AbortController();
  const timer = x.timeout
    ? window.setTimeout(
        () => controller.abort(new DOMException('timeout', 'TimeoutError')),
        REQUEST_TIMEOUT_MS,
      )
    : undefined;
  const onCallerAbort = () => controller.abort(x.signal?.reason);
  x.signal?.addEventListener('abort', onCallerAbort, { once: true });

  try {
    const response = await fetch(buildUrl(x.path, x.query), {
      method: x.method,
      headers,
      body: x.body,
      credentials: 'same-origin',
      signal: controller.signal,
      keepalive: x.keepalive,
    });
    return { response, value: await x.read(response) };
  } catch (cause) {
    if (x.signal?.aborted) throw cause;
    const timedOut = controller.signal.aborted;
    throw new ApiError(
      0,
      timedOut ? 'request.timeout' : 'request.network',
      timedOut ? 'Request timed out' : 'Network error',
    );
  } finally {
    window.clearTimeout(timer);
    x.signal?.removeEventListener('abort', onCallerAbort);
  }
}

function parseEnvelope<T>(text: string): Partial<ApiResponse<T>> | null {
  try {
    return text ? (JSON.parse(text) as Partial<ApiResponse<T>>) : null;
  } catch {
    return null;
  }
}

/** A failed answer as ApiError, after the global 401 / 403 notices unless the caller is quiet. */
function failure(
  response: Response,
  envelope: Partial<ApiResponse<unknown>> | null,
  quiet: RequestOptions['quiet'],
): ApiError {
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
  if (response.status === 401 && quiet !== true) handleUnauthorized(error);
  else if (response.status === 403 && !quiet) handleForbidden(error);
  return error;
}

/** A call answered with the JSON envelope: its result, or an ApiError. */
async function envelopeCall<T>(x: Omit<Exchange<string>, 'read'>): Promise<T> {
  const { response, value: text } = await exchange({ ...x, read: (r) => r.text() });
  const envelope = parseEnvelope<T>(text);
  if (response.ok && envelope?.success === true) return envelope.result as T;
  throw failure(response, envelope, x.quiet);
}

export async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  return envelopeCall<T>({
    method,
    path,
    query: options.query,
    body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
    contentType: method === 'POST' ? 'application/json' : undefined,
    quiet: options.quiet,
    signal: options.signal,
    keepalive: options.keepalive,
    timeout: true,
  });
}

/** The file name of a `content-disposition` header, else null. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() ?? null;
}

/** A file the server sent, with the name from its `Content-Disposition` (null without one). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

type FileCallOptions = Pick<RequestOptions, 'quiet' | 'signal'>;

export const http = {
  get: <T>(path: string, query?: Query, options?: Omit<RequestOptions, 'query' | 'body'>) =>
    request<T>('GET', path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
  /** Posts a file as it is (the body is the file); the answer is the JSON envelope. */
  upload: <T>(path: string, file: Blob, query?: Query, options?: FileCallOptions) =>
    envelopeCall<T>({
      method: 'POST',
      path,
      query,
      body: file,
      contentType: 'application/octet-stream',
      ...options,
      timeout: false,
    }),
  /**
   * Gets a file the server builds (exports, backups) as a blob. A failed one answers with
   * the JSON envelope and becomes an ApiError like any other call.
   */
  download: async (
    path: string,
    query?: Query,
    options?: FileCallOptions & { body?: unknown },
  ): Promise<DownloadedFile> => {
    const { body, ...rest } = options ?? {};
    const { response, value } = await exchange({
      // A body (an export filtered by a JSON request) makes it a POST.
      method: body === undefined ? 'GET' : 'POST',
      path,
      query,
      accept: '*/*',
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), contentType: 'application/json' }),
      ...rest,
      timeout: false,
      read: async (r): Promise<{ blob: Blob } | { text: string }> =>
        r.ok ? { blob: await r.blob() } : { text: await r.text() },
    });
    if ('blob' in value) {
      return {
        blob: value.blob,
        fileName: dispositionFileName(response.headers.get('content-disposition')),
      };
    }
    throw failure(response, parseEnvelope(value.text), options?.quiet);
  },
};

/** For tests: forget that a reload is pending. */
export function resetHttpState(): void {
  reloadScheduled = false;
}
