import { Tag } from 'antd';
import {
  AlertOutlined,
  ArrowUpOutlined,
  DisconnectOutlined,
  SoundOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  eventText,
  type IncidentPriority,
  type IncidentState,
  type IncidentView,
} from '@liftlink/protocol';
import { hasKey, tx } from '../../../lib/i18n/i18n.ts';

/** Critical and high stand out (filled, with an icon); normal and low stay quiet. */
const PRIORITY_LOOK: Record<IncidentPriority, { color: string; icon?: React.ReactNode }> = {
  critical: { color: '#cf1322', icon: <AlertOutlined /> },
  high: { color: '#d4380d', icon: <ArrowUpOutlined /> },
  normal: { color: 'blue' },
  low: { color: 'default' },
};

export function PriorityTag({ priority }: { priority: IncidentPriority }) {
  const { t } = useTranslation();
  const look = PRIORITY_LOOK[priority];
  return (
    <Tag
      color={look.color}
      icon={look.icon}
      className={`incident-priority incident-priority-${priority}`}
      data-testid="incident-priority"
      data-priority={priority}
    >
      {t(`incident.priority.${priority}`)}
    </Tag>
  );
}

const STATE_COLOR: Record<IncidentState, string> = {
  open: 'red',
  acknowledged: 'orange',
  enRoute: 'gold',
  onSite: 'cyan',
  resolved: 'green',
  closed: 'default',
  cancelled: 'default',
};

export function StateTag({ state }: { state: IncidentState }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOR[state]} data-testid="incident-state" data-state={state}>
      {t(`incident.state.${state}`)}
    </Tag>
  );
}

const CAUSE_ICON: Record<string, React.ReactNode> = {
  fault: <WarningOutlined />,
  help: <AlertOutlined />,
  offline: <DisconnectOutlined />,
  alarmTest: <SoundOutlined />,
  alarmBattery: <ThunderboltOutlined />,
  manual: <UserOutlined />,
};

export function CauseTag({ cause }: { cause: string }) {
  return (
    <Tag icon={CAUSE_ICON[cause] ?? <ToolOutlined />} className="incident-cause-tag">
      {causeName(cause)}
    </Tag>
  );
}

/** The cause's name; a cause newer than this client shows as the server names it. */
export function causeName(cause: string): string {
  return hasKey(`incident.cause.${cause}`) ? tx(`incident.cause.${cause}`) : cause;
}

/**
 * What the incident is about, in the page's language: a fault's code and its text, the
 * words of the person who opened it, or what the alarm means.
 */
export function incidentSubject(
  incident: Pick<IncidentView, 'cause' | 'code' | 'title'>,
  language: string,
): string {
  if (incident.code) return `${incident.code} · ${eventText(incident.code, language)}`;
  if (incident.title) return incident.title;
  return hasKey(`incident.about.${incident.cause}`)
    ? tx(`incident.about.${incident.cause}`)
    : causeName(incident.cause);
}

/** The lift as people know it: device number and name. */
export function liftLabel(incident: Pick<IncidentView, 'deviceNo' | 'alias'>): string {
  return [incident.deviceNo ?? tx('lift.noDeviceNo'), incident.alias].filter(Boolean).join(' · ');
}
