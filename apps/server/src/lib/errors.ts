import { API_CODES, type ApiCode, type ApiResponse } from '@liftlink/protocol';

/** An error a route throws on purpose: the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiCode,
    readonly result: unknown = null,
    msg?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(msg ?? API_CODES[code].msg);
    this.status = API_CODES[code].status;
  }
}

/** The success envelope; typed as exactly what the routes' response schemas describe. */
export function ok<T>(result: T, msg = 'OK'): { success: true; code: 'ok'; msg: string; result: T } {
  return { success: true, code: 'ok', msg, result };
}

export function fail(code: ApiCode, result: unknown = null, msg?: string): ApiResponse {
  return { success: false, code, msg: msg ?? API_CODES[code].msg, result };
}
