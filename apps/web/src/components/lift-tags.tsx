import { Badge, Tag, Tooltip } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  eventText,
  SYSTEM_MODES,
  type Deformation,
  type Movement,
  type SystemMode,
} from '@liftlink/protocol';
import { useLanguage } from '../lib/i18n/language.ts';
import './lift.css';

const MODE_COLORS: Record<SystemMode, string> = {
  standby: 'default',
  normal: 'green',
  debug: 'purple',
  lockout: 'orange',
  disabled: 'volcano',
  emergency: 'red',
};

export function isSystemMode(mode: unknown): mode is SystemMode {
  return typeof mode === 'string' && (SYSTEM_MODES as readonly string[]).includes(mode);
}

export function OnlineBadge({ online, testId }: { online: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge
      status={online ? 'success' : 'default'}
      text={t(online ? 'lift.online' : 'lift.offline')}
      data-testid={testId}
      data-online={String(online)}
    />
  );
}

export function ModeTag({ mode }: { mode: string | null | undefined }) {
  const { t } = useTranslation();
  if (!isSystemMode(mode)) return <span className="lift-muted">{t('lift.unknown')}</span>;
  return (
    <Tag color={MODE_COLORS[mode]} data-testid="mode-tag">
      {t(`device.mode.${mode}`)}
    </Tag>
  );
}

export function MovementTag({ movement }: { movement: Movement }) {
  const { t } = useTranslation();
  return (
    <Tag color={movement === 'stop' ? 'default' : 'blue'}>{t(`device.movement.${movement}`)}</Tag>
  );
}

export function DeformationTag({ deformation }: { deformation: Deformation }) {
  const { t } = useTranslation();
  return <Tag color="cyan">{t(`device.deformation.${deformation}`)}</Tag>;
}

/** A fault code with its meaning in the user's language. */
export function FaultTag({ code }: { code: string }) {
  const { language } = useLanguage();
  return (
    <Tooltip title={eventText(code, language)}>
      <Tag color="red" icon={<WarningOutlined />} data-testid="fault-tag">
        {code}
      </Tag>
    </Tooltip>
  );
}

/** Spec section 5 / 8: 'device has not been assigned a device number'. */
export function NoDeviceNoTag() {
  const { t } = useTranslation();
  return (
    <Tag color="warning" className="lift-wrap-tag" data-testid="no-device-no">
      {t('lift.noDeviceNo')}
    </Tag>
  );
}

/** Spec section 5 / 8: location information missing. */
export function LocationMissingTag() {
  const { t } = useTranslation();
  return (
    <Tag color="orange" className="lift-wrap-tag" data-testid="location-missing">
      {t('lift.location.missing')}
    </Tag>
  );
}
