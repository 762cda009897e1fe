import { useReducer, useRef, type ReactNode } from 'react';
import { Alert, App, Button, Card, Collapse, Space, Table, Tag, Tooltip } from 'antd';
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  DisconnectOutlined,
  LoadingOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  AGING_COMMAND_TARGETS,
  DEFORM_SHAPES,
  isMovementCommand,
  refusalText,
  TEST_ITEMS,
  type Command,
  type CommandName,
  type LiftStatus,
} from '@liftlink/protocol';
import { translateError } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { useLiftLive } from '../../../lib/live/use-live.ts';
import { PlainList } from '../../../components/charts/plain-list.tsx';
import { liftApi, liftDetailKeys, useCommandHistory } from '../api/lift-api.ts';
import { commandLabel } from '../model/command-label.ts';
import {
  commandProgress,
  isFailure,
  type CommandEntry,
  type ProgressState,
} from '../model/command-progress.ts';

/** The time a command was sent (outside render: only event handlers call it). */
const clock = () => Date.now();

const STATE_LOOK: Record<ProgressState, { color: string; icon: ReactNode }> = {
  sending: { color: 'processing', icon: <LoadingOutlined /> },
  created: { color: 'processing', icon: <LoadingOutlined /> },
  sent: { color: 'processing', icon: <LoadingOutlined /> },
  accepted: { color: 'processing', icon: <SyncOutlined spin /> },
  done: { color: 'success', icon: <CheckCircleOutlined /> },
  rejected: { color: 'error', icon: <CloseCircleOutlined /> },
  failed: { color: 'error', icon: <CloseCircleOutlined /> },
  expired: { color: 'warning', icon: <ClockCircleOutlined /> },
  cancelled: { color: 'default', icon: <CloseCircleOutlined /> },
  timeout: { color: 'warning', icon: <ClockCircleOutlined /> },
  offline: { color: 'default', icon: <DisconnectOutlined /> },
  error: { color: 'error', icon: <CloseCircleOutlined /> },
};

export function StateTag({ state }: { state: ProgressState }) {
  const { t } = useTranslation();
  const look = STATE_LOOK[state];
  return (
    <Tag color={look.color} icon={look.icon} data-testid="command-state">
      {t(`command.state.${state}`)}
    </Tag>
  );
}

function ProgressList({ entries }: { entries: CommandEntry[] }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  if (entries.length === 0) return null;
  return (
    <PlainList
      style={{ marginTop: 16 }}
      header={<strong>{t('command.progress')}</strong>}
      items={entries}
      rowKey={(entry) => entry.localId}
      rowProps={(entry) => ({
        'data-testid': 'command-progress',
        'data-command': entry.name,
        'data-state': entry.state,
      })}
      renderItem={(entry) => {
        const reason = entry.reason
          ? refusalText(entry.reason, language)
          : entry.errorCode
            ? translateError(entry.errorCode)
            : null;
        return (
          <div className="command-progress-item">
            <div className="command-progress-main">
              <span className="command-progress-label">{commandLabel(entry.name, entry.args)}</span>
              <StateTag state={entry.state} />
              <span className="lift-muted">{dayjs(entry.startedAt).format('HH:mm:ss')}</span>
            </div>
            {reason && isFailure(entry.state) ? (
              <div className="command-progress-reason" data-testid="command-reason">
                {reason}
              </div>
            ) : null}
          </div>
        );
      }}
    />
  );
}

function CommandHistory({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const history = useCommandHistory(liftId);
  if (history.isError) return <Alert type="error" showIcon title={t('lift.loadFailed')} />;
  return (
    <Table
      size="small"
      rowKey="commandId"
      loading={history.isLoading}
      dataSource={history.data?.list ?? []}
      pagination={{ pageSize: 10, size: 'small', hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('command.history.empty') }}
      columns={[
        {
          key: 'time',
          title: t('command.history.time'),
          render: (_, r) => dayjs(r.createdAt).format('MM-DD HH:mm:ss'),
        },
        { key: 'user', title: t('command.history.user'), render: (_, r) => r.username ?? '—' },
        {
          key: 'command',
          title: t('command.history.command'),
          render: (_, r) =>
            r.name === 'configSet'
              ? t('command.configSet')
              : r.name === 'configGet'
                ? t('command.configGet')
                : commandLabel(r.name, r.args ?? {}),
        },
        {
          key: 'state',
          title: t('command.history.state'),
          render: (_, r) => (
            <Space size={4} wrap>
              <StateTag state={r.state} />
              {r.reason && isFailure(r.state) ? (
                <span className="lift-muted">{refusalText(r.reason, language)}</span>
              ) : null}
            </Space>
          ),
        },
      ]}
    />
  );
}

interface Props {
  liftId: string;
  liftName: string;
  floors: number;
  online: boolean;
  hasDeviceNo: boolean;
  status: LiftStatus | null;
}

/**
 * Remote commands: summon per floor, pause, restart; deformation; aging; the seven tests;
 * lock and disable. Movement asks first; each command shows its progress live. Only
 * rendered for users with `liftControl.enable`; disabled while the lift is offline.
 */
export function CommandsPanel({ liftId, liftName, floors, online, hasDeviceNo, status }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const client = useQueryClient();
  const [entries, dispatch] = useReducer(commandProgress, []);
  const nextId = useRef(1);
  const disabled = !online || !hasDeviceNo;

  useLiftLive(liftId, (message) => {
    if (message.type !== 'command') return;
    dispatch({
      type: 'live',
      commandId: message.commandId,
      name: message.name,
      state: message.state,
      reason: message.reason,
    });
    void client.invalidateQueries({ queryKey: liftDetailKeys.commands(liftId) });
  });

  const send = async (name: CommandName, args: Record<string, unknown>) => {
    const localId = nextId.current++;
    dispatch({ type: 'start', localId, name, args, at: clock() });
    try {
      const result = await liftApi.control(liftId, name, args);
      dispatch({ type: 'response', localId, result });
    } catch (error) {
      dispatch({ type: 'failure', localId, error });
    } finally {
      void client.invalidateQueries({ queryKey: liftDetailKeys.commands(liftId) });
    }
  };

  const request = (name: CommandName, args: Record<string, unknown>) => {
    const label = commandLabel(name, args);
    if (!isMovementCommand({ name, args } as Command)) {
      void send(name, args);
      return;
    }
    void modal.confirm({
      title: t('command.confirm.title'),
      content: t('command.confirm.text', { command: label, lift: liftName }),
      okText: t('command.confirm.ok'),
      cancelText: t('common.cancel'),
      onOk: () => {
        void send(name, args);
      },
    });
  };

  const button = (
    name: CommandName,
    args: Record<string, unknown>,
    extra?: { danger?: boolean; primary?: boolean },
  ) => {
    const label = commandLabel(name, args);
    const testId = `cmd-${name}${Object.values(args).length ? `-${Object.values(args).map(String).join('-')}` : ''}`;
    return (
      <Button
        key={testId}
        disabled={disabled}
        danger={extra?.danger}
        type={extra?.primary ? 'primary' : 'default'}
        onClick={() => request(name, args)}
        data-testid={testId}
      >
        {label}
      </Button>
    );
  };

  const locked = status?.mode === 'lockout';
  const isDisabled = status?.mode === 'disabled';
  const floorsList = Array.from({ length: floors }, (_, i) => i + 1);

  const sections: { key: string; title: string; content: ReactNode }[] = [
    {
      key: 'remote',
      title: t('command.section.remote'),
      content: (
        <Space wrap>
          {floorsList.map((floor) => button('summon', { floor }, { primary: true }))}
          {button('pause', {})}
          {button('restart', {})}
        </Space>
      ),
    },
    {
      key: 'deform',
      title: t('command.section.deform'),
      content: <Space wrap>{DEFORM_SHAPES.map((shape) => button('deform', { shape }))}</Space>,
    },
    {
      key: 'aging',
      title: t('command.section.aging'),
      content: (
        <Space wrap>
          {AGING_COMMAND_TARGETS.map((target) =>
            button('aging', { target }, { danger: target === 'stop' }),
          )}
        </Space>
      ),
    },
    {
      key: 'test',
      title: t('command.section.test'),
      content: <Space wrap>{TEST_ITEMS.map((item) => button('test', { item }))}</Space>,
    },
    {
      key: 'lock',
      title: t('command.section.lock'),
      content: (
        <Space wrap>
          <Tooltip title={locked ? t('command.lock.isOn') : null}>
            <span>{button('lock', { on: true }, { danger: true })}</span>
          </Tooltip>
          {button('lock', { on: false })}
          <Tooltip title={isDisabled ? t('command.disable.isOn') : null}>
            <span>{button('disable', { on: true }, { danger: true })}</span>
          </Tooltip>
          {button('disable', { on: false })}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('command.title')} data-testid="commands-panel">
      {!hasDeviceNo ? (
        <Alert type="warning" showIcon className="lift-panel-alert" title={t('lift.noDeviceNo')} />
      ) : !online ? (
        <Alert
          type="warning"
          showIcon
          className="lift-panel-alert"
          title={t('command.offline')}
          data-testid="commands-offline"
        />
      ) : null}
      <div className="command-sections">
        {sections.map((section) => (
          <section
            key={section.key}
            className="command-section"
            data-testid={`command-section-${section.key}`}
          >
            <div className="lift-subheading">{section.title}</div>
            {section.content}
          </section>
        ))}
      </div>
      <ProgressList entries={entries} />
      <Collapse
        ghost
        size="small"
        className="command-history"
        items={[
          {
            key: 'history',
            label: t('command.history.title'),
            children: <CommandHistory liftId={liftId} />,
          },
        ]}
      />
    </Card>
  );
}
