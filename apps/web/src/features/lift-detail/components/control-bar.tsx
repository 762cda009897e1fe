import { Alert, App, Button, Space } from 'antd';
import {
  LockOutlined,
  TeamOutlined,
  UnlockOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { ApiError } from '../../../lib/http.ts';
import { failureOf } from '../model/command-progress.ts';
import { secondsLeft } from '../model/lease.ts';
import { clockTime, refusalView } from '../model/refusal.ts';
import { RefusalNote } from './refusal-note.tsx';
import type { ControlLease } from './use-control-lease.ts';

interface Props {
  control: ControlLease;
  liftName: string;
  /** `liftControl.edit` on this lift: may take control from another user. */
  canTakeOver: boolean;
  /** Nothing to control (offline, no device number): taking is pointless. */
  disabled: boolean;
}

/** Why this user's lease ended, until they close it. */
function LeaseNoticeAlert({ control }: { control: ControlLease }) {
  const { t } = useTranslation();
  const notice = control.notice;
  if (!notice) return null;
  const text =
    notice.reason === 'takenOver'
      ? t('control.notice.takenOver', { name: notice.byName ?? t('control.someone') })
      : notice.reason === 'localControl'
        ? t('control.notice.localControl')
        : t('control.notice.expired');
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose: control.closeNotice }}
      className="lift-panel-alert"
      title={text}
      data-testid="control-notice"
      data-reason={notice.reason}
    />
  );
}

/**
 * Who controls the lift (you, another user by name, nobody) and the buttons to take,
 * release or take over control; after local use, until when remote control is paused.
 */
export function ControlBar({ control, liftName, canTakeOver, disabled }: Props) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { modal } = App.useApp();
  const holderName = control.lease?.holderName ?? '';
  const local = control.localUntil;

  const takeOver = () =>
    void modal.confirm({
      title: t('control.takeOver.title'),
      content: t('control.takeOver.text', { name: holderName, lift: liftName }),
      okText: t('control.takeOver'),
      okButtonProps: { danger: true, 'data-testid': 'control-takeover-confirm' },
      cancelText: t('common.cancel'),
      onOk: () => control.take(true),
    });

  const text =
    control.holder === 'me'
      ? t('control.bar.me')
      : control.holder === 'other'
        ? t('control.bar.other', { name: holderName })
        : t('control.bar.nobody');
  const icon =
    control.holder === 'me' ? (
      <UserOutlined />
    ) : control.holder === 'other' ? (
      <TeamOutlined />
    ) : (
      <UnlockOutlined />
    );

  const error =
    control.error instanceof ApiError && !control.error.handled
      ? refusalView(failureOf(control.error), language)
      : null;

  return (
    <div className="control-bar-wrap">
      <LeaseNoticeAlert control={control} />
      <div className={`control-bar control-bar-${control.holder}`} data-testid="control-bar">
        <div className="control-bar-state">
          <span
            className="control-bar-holder"
            data-testid="control-holder"
            data-holder={control.holder}
          >
            {icon} {text}
          </span>
          {local !== null ? (
            <span className="control-bar-local" data-testid="control-local">
              <WarningOutlined />{' '}
              {t('control.bar.local', {
                time: clockTime(new Date(local).toISOString()),
                seconds: secondsLeft(local, control.now),
              })}
            </span>
          ) : null}
        </div>
        <Space wrap size={8} className="control-bar-actions">
          {control.holder === 'nobody' ? (
            <Button
              type="primary"
              icon={<LockOutlined />}
              loading={control.busy}
              disabled={disabled || local !== null || control.loading}
              onClick={() => void control.take(false)}
              data-testid="control-take"
            >
              {t('control.take')}
            </Button>
          ) : null}
          {control.holder === 'me' ? (
            <Button
              icon={<UnlockOutlined />}
              loading={control.busy}
              onClick={() => void control.release()}
              data-testid="control-release"
            >
              {t('control.release')}
            </Button>
          ) : null}
          {control.holder === 'other' && canTakeOver ? (
            <Button
              danger
              loading={control.busy}
              disabled={disabled || local !== null}
              onClick={takeOver}
              data-testid="control-takeover"
            >
              {t('control.takeOver')}
            </Button>
          ) : null}
        </Space>
      </div>
      {control.holder !== 'me' && local === null ? (
        <div className="lift-muted control-bar-hint" data-testid="control-hint">
          {control.holder === 'other'
            ? t('control.hint.other', { name: holderName })
            : t('control.hint.take')}
        </div>
      ) : null}
      {error ? <RefusalNote view={error} testId="control-error" /> : null}
    </div>
  );
}
