import { useEffect, useState, type ReactNode } from 'react';
import { Progress } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  firmwareReasonAdvice,
  firmwareReasonText,
  isOpenLiftUpdate,
  liftUpdateOutlook,
  type LiftFirmwareUpdate,
} from '@liftlink/protocol';
import { useLanguage } from '../../lib/i18n/language.ts';
import { CampaignLiftStateTag } from './campaign-lift-state-tag.tsx';
import { clockHour, isInstalling, timeZoneName, UPDATE_TIME } from './lift-update-model.ts';
import '../lift.css';
import './firmware-update.css';

const time = (iso: string) => dayjs(iso).format(UPDATE_TIME);
const DAY_MS = 86_400_000;

/** Whether the installation window is open now; turns by itself when it opens or closes on screen. */
function useWindowOpen(span: { start: string; end: string } | null): boolean {
  const [now, setNow] = useState(() => Date.now());
  const start = span ? Date.parse(span.start) : NaN;
  const end = span ? Date.parse(span.end) : NaN;
  const turn = now < start ? start : now < end ? end : null;
  useEffect(() => {
    if (turn === null) return;
    const timer = window.setTimeout(
      () => setNow(Date.now()),
      Math.min(Math.max(0, turn - Date.now()) + 100, DAY_MS),
    );
    return () => window.clearTimeout(timer);
  }, [turn]);
  return now >= start && now < end;
}

/**
 * When the update happens, as the lift's operator needs it: whether it waits for the maker's
 * approval or is paused, the lift's stage and when it starts, the lift's own progress (why it
 * waits or failed and what to do, in the user's language), the installation window in the
 * lift's local hours with its time zone and when it next opens in the user's time, or when
 * it ended.
 */
export function LiftUpdateWhen({ update: u }: { update: LiftFirmwareUpdate }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const outlook = liftUpdateOutlook(u);
  const windowOpen = useWindowOpen(u.nextWindow);
  const lines: ReactNode[] = [];
  const line = (key: string, content: ReactNode, muted = false) =>
    lines.push(
      <div key={key} className={muted ? 'firmware-update-line lift-muted' : 'firmware-update-line'}>
        {content}
      </div>,
    );
  const reason = () => {
    if (!u.reason) return;
    line('reason', firmwareReasonText(u.reason, language));
    const advice = firmwareReasonAdvice(u.reason, language);
    if (advice) line('advice', advice, true);
  };

  switch (outlook) {
    case 'awaitingApproval':
      line('what', t('firmwareUpdate.when.awaitingApproval'));
      break;
    case 'paused':
      line('what', t(`firmwareUpdate.when.paused.${u.pauseReason ?? 'manual'}`));
      break;
    case 'scheduled': {
      const stage = { stage: u.stage + 1, count: u.stageCount };
      line(
        'what',
        u.stageStartsAt
          ? t('firmwareUpdate.when.stageStarts', { ...stage, time: time(u.stageStartsAt) })
          : u.stage > 0
            ? t('firmwareUpdate.when.stageAfter', { ...stage, previous: u.stage })
            : t('firmwareUpdate.when.stage', stage),
      );
      break;
    }
    case 'inProgress':
      line(
        'what',
        <>
          <CampaignLiftStateTag state={u.state} />
          {u.state === 'downloading' && u.percent !== null ? (
            <Progress percent={u.percent} size="small" className="firmware-update-percent" />
          ) : null}
        </>,
      );
      reason();
      if (u.state === 'deferred' && u.retryAt)
        line('retry', t('firmwareUpdate.when.retryAt', { time: time(u.retryAt) }), true);
      break;
    case 'done':
      line('what', t('firmwareUpdate.when.done', { time: time(u.updatedAt) }));
      break;
    case 'failed':
      line('what', t('firmwareUpdate.when.failed', { time: time(u.updatedAt) }));
      reason();
      break;
    case 'cancelled':
      line('what', t('firmwareUpdate.when.cancelled', { time: time(u.updatedAt) }));
      break;
  }

  // The window matters until the lift installs; its next opening once the lift's turn may come.
  if (isOpenLiftUpdate(u) && !isInstalling(u)) {
    line(
      'window',
      u.window
        ? t('firmwareUpdate.when.window', {
            start: clockHour(u.window.startHour),
            end: clockHour(u.window.endHour),
            timeZone: timeZoneName(u.timeZone),
          })
        : t('firmwareUpdate.when.anyTime'),
      true,
    );
    // A deferred lift says when it tries again: the window's opening, or later.
    const retries = u.state === 'deferred' && u.retryAt !== null;
    if (u.nextWindow && !retries && (outlook === 'scheduled' || outlook === 'inProgress'))
      line(
        'next',
        windowOpen
          ? t('firmwareUpdate.when.windowOpen', { time: time(u.nextWindow.end) })
          : t('firmwareUpdate.when.nextWindow', { time: time(u.nextWindow.start) }),
        true,
      );
  }

  return (
    <div className="firmware-update-when" data-testid="firmware-update-when">
      {lines}
    </div>
  );
}
