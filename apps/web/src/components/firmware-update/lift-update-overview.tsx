import type { LiftFirmwareUpdate } from '@liftlink/protocol';
import { LiftUpdateOutlookTag } from './lift-update-outlook-tag.tsx';
import { LiftUpdateVersion, ReleaseNotesLink } from './lift-update-version.tsx';
import { LiftUpdateWhen } from './lift-update-when.tsx';
import '../lift.css';
import './firmware-update.css';

/** What the update does and when, stacked: the lift card and a row at phone width. */
export function LiftUpdateOverview({ update }: { update: LiftFirmwareUpdate }) {
  return (
    <div className="firmware-update-overview">
      <div className="firmware-update-line">
        <LiftUpdateOutlookTag update={update} />
        <LiftUpdateVersion update={update} />
        <ReleaseNotesLink update={update} />
      </div>
      <div className="lift-muted">
        {update.campaignName} · {update.makerOrgName}
      </div>
      <LiftUpdateWhen update={update} />
    </div>
  );
}
