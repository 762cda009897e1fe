import { greetingFor } from '@liftlink/protocol';
import { tx } from './i18n/i18n.ts';

/** "Good morning" and friends by the local hour (spec section 9). */
export function greetingText(date: Date = new Date()): string {
  return tx(`greeting.${greetingFor(date.getHours())}`);
}
