import { Tag } from 'antd';
import { AlertOutlined, DisconnectOutlined, SoundOutlined, ThunderboltOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AlertItem } from '../api/alerts-api.ts';

const LOOK = {
  fault: { color: 'red', icon: <WarningOutlined /> },
  help: { color: 'volcano', icon: <AlertOutlined /> },
  offline: { color: 'default', icon: <DisconnectOutlined /> },
  alarmTest: { color: 'magenta', icon: <SoundOutlined /> },
  alarmBattery: { color: 'orange', icon: <ThunderboltOutlined /> },
} as const;

export function AlertKindTag({ kind }: { kind: AlertItem['kind'] }) {
  const { t } = useTranslation();
  const look = LOOK[kind] ?? LOOK.fault;
  return (
    <Tag color={look.color} icon={look.icon}>
      {t(`alert.kind.${kind}`)}
    </Tag>
  );
}
