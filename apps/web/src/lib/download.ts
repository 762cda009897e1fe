import { http, type Query } from './http.ts';

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

/**
 * Downloads a file the server builds (CSV exports, backups) through the HTTP client and
 * saves it under the server's name, else `fallbackName`. A failure is an ApiError.
 */
export async function downloadFile(
  path: string,
  query: Query,
  fallbackName: string,
): Promise<void> {
  const { blob, fileName } = await http.download(path, query);
  saveBlob(blob, fileName ?? fallbackName);
}

/** As `downloadFile`, for an export the server builds from a POSTed JSON request. */
export async function downloadPostedFile(
  path: string,
  body: unknown,
  fallbackName: string,
): Promise<void> {
  const { blob, fileName } = await http.download(path, undefined, { body });
  saveBlob(blob, fileName ?? fallbackName);
}
