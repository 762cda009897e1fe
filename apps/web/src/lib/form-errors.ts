import type { FormInstance } from 'antd';
import { ApiError } from './http.ts';
import { translateError, translateIssue } from './i18n/i18n.ts';

/**
 * Puts a `validation.failed` answer's issues on the form fields they name and returns
 * true; for any other error returns false so the caller shows a message.
 */
export function applyServerIssues(form: FormInstance, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.issues.length === 0) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  // The first part of the path that is a field of this form: `password`, or `iccid` of
  // `iotInfo.iccid` when the form edits what the request nests under `iotInfo`.
  const fieldOf = (path: string) => path.split('.').find((part) => known.has(part));
  const fields = error.issues.flatMap((issue) => {
    const name = fieldOf(issue.path);
    return name ? [{ name, errors: [translateIssue(issue.message)] }] : [];
  });
  if (fields.length === 0) return false;
  form.setFields(fields);
  return true;
}

/** The text to show for a failed call, or null when the HTTP client already showed one. */
export function errorMessage(error: unknown): string | null {
  if (error instanceof ApiError) {
    if (error.handled) return null;
    if (error.code === 'validation.failed' && error.issues[0])
      return translateIssue(error.issues[0].message);
    return translateError(error.code, error.message);
  }
  return translateError('unknown');
}

/** Shows the text of a failed call, unless the HTTP client already told the user. */
export function showError(
  message: { error: (text: string) => unknown },
  error: unknown,
  fallback?: string,
): void {
  const text = errorMessage(error) ?? fallback;
  if (text) void message.error(text);
}
