import { Button, Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LiftFirmwareUpdate } from '@liftlink/protocol';
import { LANGUAGE_LABELS, useLanguage } from '../../lib/i18n/language.ts';
import { releaseNotesFor } from './lift-update-model.ts';
import '../lift.css';
import './firmware-update.css';

/** The version the lift runs and the one the update installs: "1.0.0 → 1.2.0". */
export function LiftUpdateVersion({
  update,
}: {
  update: Pick<LiftFirmwareUpdate, 'runningVersion' | 'version'>;
}) {
  const { runningVersion, version } = update;
  return (
    <span className="firmware-update-version" data-testid="firmware-update-version">
      {runningVersion && runningVersion !== version ? (
        <span className="lift-muted">{runningVersion} → </span>
      ) : null}
      <Typography.Text strong>{version}</Typography.Text>
    </span>
  );
}

/**
 * The release notes behind a link (they may be long): in the user's language, else in
 * English, else in any language that has some, named when it is not the user's. Nothing
 * when there are none.
 */
export function ReleaseNotesLink({
  update,
}: {
  update: Pick<LiftFirmwareUpdate, 'releaseNotes' | 'version'>;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const notes = releaseNotesFor(update.releaseNotes, language);
  if (!notes) return null;
  const title =
    notes.language === language
      ? t('firmwareUpdate.notes', { version: update.version })
      : t('firmwareUpdate.notesIn', {
          version: update.version,
          language: LANGUAGE_LABELS[notes.language],
        });
  return (
    <Popover
      trigger="click"
      title={title}
      content={
        <div className="firmware-update-notes" data-testid="firmware-update-notes">
          {notes.text}
        </div>
      }
    >
      <Button type="link" size="small" className="firmware-update-notes-button">
        {t('firmwareUpdate.notesLink')}
      </Button>
    </Popover>
  );
}
