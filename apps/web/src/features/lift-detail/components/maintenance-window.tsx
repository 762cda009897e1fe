import { useState } from 'react';
import { Alert, App, Button, Grid, Popconfirm } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { showError } from '../../../lib/form-errors.ts';
import { useCurrentWindows, useEndWindow, type MaintenanceWindow } from '../api/maintenance-api.ts';
import { MaintenanceDeclareModal } from './maintenance-declare-modal.tsx';
import { useNow } from './use-now.ts';
import './logbook.css';

const TIME = 'YYYY-MM-DD HH:mm';

/** The window that matters now: the running one, else the next planned one. */
export function shownWindow(list: MaintenanceWindow[], now: number): MaintenanceWindow | null {
  const open = list.filter((w) => Date.parse(w.endsAt) > now);
  const running = open.find((w) => Date.parse(w.startsAt) <= now);
  if (running) return running;
  return [...open].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))[0] ?? null;
}

interface Props {
  liftId: string;
  /** May see the lift's windows (`incident.query`). */
  canSee: boolean;
  /** May declare one (`incident.add`). */
  canDeclare: boolean;
  /** May end one (`incident.edit`). */
  canEnd: boolean;
}

/**
 * The lift's maintenance window (docs/service.md): a banner while one runs ("alerts are held
 * until …") or one is planned, with who declared it and why, "End now" / "Call off" after a
 * confirmation; without one, the button that declares one.
 */
export function MaintenanceWindowBar({ liftId, canSee, canDeclare, canEnd }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // At phone width the button goes under the text, which keeps the whole line.
  const phone = Grid.useBreakpoint().md === false;
  const [declaring, setDeclaring] = useState<Dayjs | null>(null);
  const windows = useCurrentWindows(liftId, canSee);
  const end = useEndWindow(liftId);
  // Ticks each 15 s while a window is listed, so the banner turns on and off at its edges.
  const listed = (windows.data?.list.length ?? 0) > 0;
  const now = useNow(() => listed, 15_000);
  const shown = shownWindow(windows.data?.list ?? [], now);
  const running = shown !== null && Date.parse(shown.startsAt) <= now;

  const endWindow = (w: MaintenanceWindow) =>
    end.mutateAsync(w.id).then(
      () => void message.success(t('lift.maintenance.ended')),
      (error: unknown) => showError(message, error),
    );

  const declare = canDeclare ? (
    <>
      <Button
        size="small"
        icon={<ToolOutlined />}
        onClick={() => setDeclaring(dayjs())}
        data-testid="maintenance-declare"
      >
        {t('lift.maintenance.declare')}
      </Button>
      <MaintenanceDeclareModal
        liftId={liftId}
        openedAt={declaring}
        onClose={() => setDeclaring(null)}
      />
    </>
  ) : null;

  const endButton =
    shown && canEnd ? (
      <Popconfirm
        title={running ? t('lift.maintenance.endConfirm') : t('lift.maintenance.callOffConfirm')}
        okText={running ? t('lift.maintenance.endNow') : t('lift.maintenance.callOff')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'maintenance-end-confirm' }}
        onConfirm={() => endWindow(shown)}
      >
        <Button size="small" loading={end.isPending} data-testid="maintenance-end">
          {running ? t('lift.maintenance.endNow') : t('lift.maintenance.callOff')}
        </Button>
      </Popconfirm>
    ) : null;

  if (!shown) return declare ? <div className="maintenance-declare-row">{declare}</div> : null;
  return (
    <Alert
      type={running ? 'warning' : 'info'}
      showIcon
      icon={<ToolOutlined />}
      className="maintenance-banner"
      data-testid="maintenance-banner"
      data-state={running ? 'running' : 'planned'}
      title={
        running
          ? t('lift.maintenance.active', { end: dayjs(shown.endsAt).format(TIME) })
          : t('lift.maintenance.planned', {
              start: dayjs(shown.startsAt).format(TIME),
              end: dayjs(shown.endsAt).format(TIME),
            })
      }
      description={
        <>
          <div>
            {t('lift.maintenance.detail', {
              reason: shown.reason,
              name: shown.declaredByName,
              time: dayjs(shown.declaredAt).format(TIME),
            })}
          </div>
          {phone && endButton ? <div className="maintenance-actions">{endButton}</div> : null}
        </>
      }
      action={phone ? null : endButton}
    />
  );
}
