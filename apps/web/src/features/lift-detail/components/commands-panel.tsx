import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Collapse, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  AGING_COMMAND_TARGETS,
  commandClass,
  DEFORM_SHAPES,
  isMovementCommand,
  needsLease,
  TEST_ITEMS,
  type Command,
  type CommandClass,
  type CommandName,
  type LiftStatus,
} from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';
import { useOptionalSession } from '../../../lib/session.ts';
import { controlApi } from '../api/control-api.ts';
import { commandLabel } from '../model/command-label.ts';
import { clockTime } from '../model/refusal.ts';
import { ApprovalRequestModal, type ApprovalTarget } from './approval-request-modal.tsx';
import { ApprovalsList } from './approvals-list.tsx';
import { CommandHistory } from './command-history-table.tsx';
import { ProgressList } from './command-progress-list.tsx';
import { ControlBar } from './control-bar.tsx';
import { useApprovals } from './use-approvals.ts';
import { useCommandSender } from './use-command-sender.ts';
import { useControlLease } from './use-control-lease.ts';

export { StateTag } from './command-progress-list.tsx';

interface Props {
  liftId: string;
  liftName: string;
  floors: number;
  online: boolean;
  hasDeviceNo: boolean;
  status: LiftStatus | null;
  /** `liftControl.edit` on this lift: may take control from another user. */
  canTakeOver?: boolean;
  /** The classes under two-person approval, when the lift's answer names them. */
  approvalClasses?: readonly CommandClass[];
}

/**
 * Remote commands: summon per floor, pause, restart; deformation; aging; the seven tests;
 * lock and disable. Only rendered for users with `liftControl.enable`; disabled while the
 * lift is offline. Commands that move the lift need its control lease (the control bar) and
 * ask first; pausing and stopping aging stay open to everyone allowed to control. Each
 * command shows its progress live, a cancel window, and after a refusal what to do next.
 */
export function CommandsPanel({
  liftId,
  liftName,
  floors,
  online,
  hasDeviceNo,
  status,
  canTakeOver = false,
  approvalClasses = [],
}: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const userId = useOptionalSession()?.info.id ?? null;
  const control = useControlLease(liftId, userId);
  const sender = useCommandSender(liftId);
  const approvals = useApprovals(liftId, userId, sender.approved);
  const [approvalFor, setApprovalFor] = useState<ApprovalTarget | null>(null);
  // Classes the server answered `approval.required` for: their next click asks for approval.
  const [learned, setLearned] = useState<ReadonlySet<CommandClass>>(() => new Set());
  const disabled = !online || !hasDeviceNo;
  const leasedOpen = !disabled && control.holder === 'me' && control.localUntil === null;

  /** Why a leased control is disabled, for its tooltip. */
  const leasedWhy =
    disabled || leasedOpen
      ? null
      : control.localUntil !== null
        ? t('control.disabled.local', {
            time: clockTime(new Date(control.localUntil).toISOString()),
          })
        : control.holder === 'other'
          ? t('control.bar.other', { name: control.lease?.holderName ?? '' })
          : t('control.disabled.take');

  const needsApproval = (cls: CommandClass) => approvalClasses.includes(cls) || learned.has(cls);

  const click = (button: string, name: CommandName, args: Record<string, unknown>) => {
    if (!sender.claim(button)) return;
    const command = { name, args } as Command;
    const cls = commandClass(command);
    if (needsApproval(cls)) {
      sender.unclaim(button);
      setApprovalFor({ name, args });
      return;
    }
    const go = async () => {
      try {
        const error = await sender.send(name, args);
        if (error instanceof ApiError && error.code === 'approval.required')
          setLearned((old) => new Set(old).add(cls));
      } finally {
        sender.unclaim(button);
      }
    };
    if (!isMovementCommand(command)) {
      void go();
      return;
    }
    void modal.confirm({
      title: t('command.confirm.title'),
      content: t('command.confirm.text', { command: commandLabel(name, args), lift: liftName }),
      okText: t('command.confirm.ok'),
      cancelText: t('common.cancel'),
      onOk: () => {
        void go();
      },
      onCancel: () => sender.unclaim(button),
    });
  };

  const button = (
    name: CommandName,
    args: Record<string, unknown>,
    extra?: { danger?: boolean; primary?: boolean },
  ) => {
    const label = commandLabel(name, args);
    const testId = `cmd-${name}${Object.values(args).length ? `-${Object.values(args).map(String).join('-')}` : ''}`;
    const leased = needsLease({ name, args } as Command);
    const blocked = disabled || (leased && !leasedOpen);
    const element = (
      <Button
        key={testId}
        disabled={blocked}
        loading={sender.busy.has(testId)}
        danger={extra?.danger}
        type={extra?.primary ? 'primary' : 'default'}
        onClick={() => click(testId, name, args)}
        data-testid={testId}
        data-leased={leased ? 'true' : 'false'}
      >
        {label}
      </Button>
    );
    return leased && blocked && leasedWhy ? (
      <Tooltip key={testId} title={leasedWhy}>
        <span>{element}</span>
      </Tooltip>
    ) : (
      element
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
      <ControlBar
        control={control}
        liftName={liftName}
        canTakeOver={canTakeOver}
        disabled={disabled}
      />
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
      <ProgressList
        entries={sender.entries}
        onCancel={(entry) => void sender.cancel(entry)}
        onRetry={sender.retry}
        onRequestApproval={
          leasedOpen ? (entry) => setApprovalFor({ name: entry.name, args: entry.args }) : null
        }
      />
      <ApprovalsList
        approvals={approvals}
        userId={userId}
        liftName={liftName}
        onApprove={async (approval) => {
          await sender.track(approval.command, approval.args, () =>
            controlApi.approve(approval.id),
          );
          approvals.refresh();
        }}
      />
      <ApprovalRequestModal
        target={approvalFor}
        liftId={liftId}
        liftName={liftName}
        approvals={approvals}
        onClose={() => setApprovalFor(null)}
      />
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
