/** True when the test run is CI's (`.ci/run` sets CI=true). */
export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Whether a suite that needs a service (PostgreSQL, Mosquitto) must be skipped here. On a
 * developer's machine without the service it is skipped with a warning; under CI=true a
 * missing service fails the run with this message instead (CI installs and starts every
 * service, so a skip there would hide a whole suite).
 */
export function skipWithout(what: string, missing: string | null): boolean {
  if (missing === null) return false;
  if (inCi) throw new Error(`${what} is required under CI=true but missing: ${missing}`);
  console.warn(`${what} tests skipped: ${missing}`);
  return true;
}
