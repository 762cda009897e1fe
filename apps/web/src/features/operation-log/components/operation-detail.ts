/** The result's colour: green when it went through, blue while under way, red when it did not. */
export function resultColor(result: string): string {
  if (['ok', 'done', 'applied'].includes(result)) return 'green';
  if (['accepted', 'sent', 'created'].includes(result)) return 'blue';
  if (['rejected', 'failed', 'timeout', 'expired', 'error', 'denied'].includes(result))
    return 'red';
  return 'default';
}
