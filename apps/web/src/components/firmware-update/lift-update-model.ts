import { LANGUAGES, type Language, type LiftFirmwareUpdate } from '@liftlink/protocol';

/** How the firmware update pieces show a time: in the user's own time zone. */
export const UPDATE_TIME = 'YYYY-MM-DD HH:mm';

/** The release notes in `language`, else in English, else in any language that has some. */
export function releaseNotesFor(
  notes: LiftFirmwareUpdate['releaseNotes'],
  language: Language,
): { language: Language; text: string } | null {
  for (const l of [language, 'en-US' as const, ...LANGUAGES]) {
    const text = notes[l].trim();
    if (text) return { language: l, text };
  }
  return null;
}

/** An hour of the day as a clock shows it: 2 → "02:00". */
export const clockHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** A time zone as people read it: "America/New_York" → "America/New York". */
export const timeZoneName = (timeZone: string) => timeZone.replaceAll('_', ' ');

/** Whether the lift is installing or restarting: its window no longer matters. */
export const isInstalling = (u: Pick<LiftFirmwareUpdate, 'state'>) =>
  u.state === 'installing' || u.state === 'rebooting';
