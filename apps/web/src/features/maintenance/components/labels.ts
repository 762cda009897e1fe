import { checklistLabelText, type ChecklistLabel } from '@liftlink/protocol';

/** An item's words in the page's language (a free text reads the same in every language). */
export function itemLabel(item: { labelText: unknown; label: string }, language: string): string {
  const text = item.labelText;
  if (typeof text === 'string') return text;
  if (text && typeof text === 'object') return checklistLabelText(text as ChecklistLabel, language);
  return item.label;
}

/** A lift as people name it: device number and alias. */
export function liftName(lift: { deviceNo: string | null; alias: string }): string {
  return [lift.deviceNo, lift.alias].filter(Boolean).join(' · ');
}
