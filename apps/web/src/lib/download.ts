import { CSRF_COOKIE, CSRF_HEADER, TOKEN_HEADER } from '@liftlink/protocol';
import { ApiError, readCookie, type Query } from './http.ts';
import { getToken } from './token.ts';

/** Spec section 7: the helper that saves text as a local file has the default name file.txt. */
export const DEFAULT_TEXT_FILE_NAME = 'file.txt';

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text as a local file (UTF-8). */
export function saveTextFile(
  text: string,
  fileName: string = DEFAULT_TEXT_FILE_NAME,
  type = 'text/plain;charset=utf-8',
): void {
  saveBlob(new Blob([text], { type }), fileName || DEFAULT_TEXT_FILE_NAME);
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

/**
 * Downloads a file the server builds (CSV exports) with the same headers as the HTTP
 * client. A failed export answers with the JSON envelope: it becomes an ApiError.
 */
export async function downloadFile(
  path: string,
  query: Query,
  fallbackName: string,
): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers[TOKEN_HEADER] = token;
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  let response: Response;
  try {
    const qs = params.toString();
    response = await fetch(qs ? `${path}?${qs}` : path, { headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'request.network', 'Network error');
  }
  if (!response.ok) {
    let code = response.status >= 500 ? 'internal' : 'request.failed';
    let msg = response.statusText;
    try {
      const envelope = (await response.json()) as { code?: unknown; msg?: unknown };
      if (typeof envelope.code === 'string') code = envelope.code;
      if (typeof envelope.msg === 'string') msg = envelope.msg;
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, code, msg);
  }
  const blob = await response.blob();
  saveBlob(blob, dispositionFileName(response.headers.get('content-disposition')) ?? fallbackName);
}
