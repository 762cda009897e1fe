import { Card, Col, Descriptions, Empty, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LiftStatus } from '@liftlink/protocol';
import { Lamp, LampGrid, type LampItem } from '../../../components/lamp.tsx';
import { FaultTag } from '../../../components/lift-tags.tsx';

const CHAIN_COLOR = { normal: 'green', slack: 'orange', broken: 'red' } as const;

function NoStatus() {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('lift.status.none')} />;
}

/** Platform real-time values (spec section 3). */
export function PlatformValues({ status }: { status: LiftStatus | null }) {
  const { t } = useTranslation();
  if (!status)
    return (
      <Card title={t('lift.panel.platform')}>
        <NoStatus />
      </Card>
    );
  const p = status.platform;
  const yes = (v: boolean) => t(v ? 'common.yes' : 'common.no');
  return (
    <Card title={t('lift.panel.platform')} data-testid="panel-platform">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, xl: 3 }}
        items={[
          {
            key: 'voltage',
            label: t('device.status.voltage'),
            children: t('lift.unit.volts', { value: p.voltage.toFixed(2) }),
          },
          {
            key: 'position',
            label: t('device.status.position'),
            children: <span data-testid="platform-position">{p.position}</span>,
          },
          {
            key: 'floor',
            label: t('device.status.floor'),
            children: (
              <span data-testid="platform-floor">{status.floor ?? t('lift.betweenFloors')}</span>
            ),
          },
          {
            key: 'target',
            label: t('device.status.targetFloor'),
            children: status.targetFloor ?? '—',
          },
          {
            key: 'movement',
            label: t('device.status.movement'),
            children: t(`device.movement.${p.movement}`),
          },
          {
            key: 'deformation',
            label: t('device.status.deformation'),
            children: t(`device.deformation.${p.deformation}`),
          },
          {
            key: 'load',
            label: t('device.status.loadValue'),
            children: t('lift.unit.kg', { value: p.loadValue }),
          },
          {
            key: 'overloaded',
            label: t('device.status.overloaded'),
            children: (
              <Lamp
                on={p.overloaded}
                tone="red"
                label={yes(p.overloaded)}
                testId="lamp-overloaded"
              />
            ),
          },
          {
            key: 'charge',
            label: t('device.status.chargeValue'),
            children: t('lift.chargeValue', {
              real: p.chargeValue.real.toFixed(2),
              check: p.chargeValue.check.toFixed(2),
            }),
          },
          {
            key: 'charging',
            label: t('device.status.charging'),
            children: <Lamp on={p.charging} label={yes(p.charging)} />,
          },
          {
            key: 'help',
            label: t('device.status.helpSignal'),
            children: <Lamp on={p.helpSignal} tone="red" label={yes(p.helpSignal)} />,
          },
          { key: 'paused', label: t('device.status.paused'), children: yes(status.paused) },
          {
            key: 'aging',
            label: t('device.status.aging'),
            children: status.aging
              ? t('lift.agingRunning', {
                  target: t(`device.aging.${status.aging.target}`),
                  cycles: status.aging.cycles,
                })
              : t('common.no'),
          },
          {
            key: 'faults',
            label: t('device.status.faults'),
            children:
              status.faults.length > 0
                ? status.faults.map((code) => <FaultTag key={code} code={code} />)
                : t('lift.noFault'),
          },
        ]}
      />
    </Card>
  );
}

export function PlatformIo({ status }: { status: LiftStatus | null }) {
  const { t } = useTranslation();
  const io = status?.platformIo;
  const items: LampItem[] = io
    ? [
        {
          key: 'leftFlapUpperLimit',
          label: t('device.io.leftFlapUpperLimit'),
          on: io.leftFlapUpperLimit,
        },
        {
          key: 'leftFlapLowerLimit',
          label: t('device.io.leftFlapLowerLimit'),
          on: io.leftFlapLowerLimit,
        },
        {
          key: 'rightFlapUpperLimit',
          label: t('device.io.rightFlapUpperLimit'),
          on: io.rightFlapUpperLimit,
        },
        {
          key: 'rightFlapLowerLimit',
          label: t('device.io.rightFlapLowerLimit'),
          on: io.rightFlapLowerLimit,
        },
        {
          key: 'pedalAntiCollision',
          label: t('device.io.pedalAntiCollision'),
          on: io.pedalAntiCollision,
          tone: 'amber',
        },
        {
          key: 'flapNotInPlace',
          label: t('device.io.flapNotInPlace'),
          on: io.flapNotInPlace,
          tone: 'red',
        },
        {
          key: 'floor1InPlace',
          label: t('device.io.floorInPlace', { floor: 1 }),
          on: io.floor1InPlace,
        },
        {
          key: 'floor2InPlace',
          label: t('device.io.floorInPlace', { floor: 2 }),
          on: io.floor2InPlace,
        },
        { key: 'pedalLock', label: t('device.io.pedalLock'), on: io.pedalLock },
        ...io.multiFunction.map((on, i) => ({
          key: `multiFunction${i + 1}`,
          label: t('device.io.multiFunction', { n: i + 1 }),
          on,
          tone: 'blue' as const,
        })),
      ]
    : [];
  return (
    <Card title={t('lift.panel.platformIo')} data-testid="panel-platform-io">
      {io ? <LampGrid items={items} testId="platform-io" /> : <NoStatus />}
    </Card>
  );
}

export function HousingPanel({ status }: { status: LiftStatus | null }) {
  const { t } = useTranslation();
  const h = status?.housing;
  if (!h)
    return (
      <Card title={t('lift.panel.housing')}>
        <NoStatus />
      </Card>
    );
  const io = h.io;
  const nodes: LampItem[] = [
    { key: 'commNode', label: t('device.status.commNode'), on: h.commNodeOnline },
    { key: 'chargingTop', label: t('device.status.chargingTop'), on: h.chargingNodes.top },
    { key: 'chargingBottom', label: t('device.status.chargingBottom'), on: h.chargingNodes.bottom },
    {
      key: 'summoning',
      label: t('device.status.summoning'),
      on: h.slaveNodes.summoning,
      tone: 'blue',
    },
    {
      key: 'actuatorMotor',
      label: t('device.status.actuatorMotor'),
      on: h.slaveNodes.actuatorMotor,
      tone: 'blue',
    },
  ];
  const buttons = ['b1', 'b2', 'b3', 'b4', 'b5'] as const;
  const keypad = ['menu', 'up', 'down', 'confirm'] as const;
  const ioItems: LampItem[] = [
    {
      key: 'emergencyStop',
      label: t('device.io.emergencyStop'),
      on: io.emergencyStop,
      tone: 'red',
    },
    { key: 'alarmButton', label: t('device.io.alarmButton'), on: io.alarmButton, tone: 'red' },
    {
      key: 'emergencyMode',
      label: t('device.io.emergencyMode'),
      on: io.emergencyMode,
      tone: 'red',
    },
    { key: 'lockoutMode', label: t('device.io.lockoutMode'), on: io.lockoutMode, tone: 'amber' },
    { key: 'extremeTop', label: t('device.io.extremeTop'), on: io.extremeTop, tone: 'amber' },
    {
      key: 'extremeBottom',
      label: t('device.io.extremeBottom'),
      on: io.extremeBottom,
      tone: 'amber',
    },
    { key: 'driveRunning', label: t('device.io.driveRunning'), on: io.driveRunning },
    { key: 'driveFailed', label: t('device.io.driveFailed'), on: io.driveFailed, tone: 'red' },
    ...buttons.map((b, i) => ({
      key: `remote-${b}`,
      label: t('device.io.remoteButton', { n: i + 1 }),
      on: io.remoteButtons[b],
      tone: 'blue' as const,
    })),
    { key: 'jogUp', label: t('device.io.jogUp'), on: io.jogUp, tone: 'blue' },
    { key: 'jogDown', label: t('device.io.jogDown'), on: io.jogDown, tone: 'blue' },
    ...keypad.map((k) => ({
      key: `config-${k}`,
      label: t(`device.io.config.${k}`),
      on: io.configButtons[k],
      tone: 'blue' as const,
    })),
  ];
  return (
    <Card title={t('lift.panel.housing')} data-testid="panel-housing">
      <div className="lift-housing-chain">
        <span>{t('device.status.chain')}</span>
        <Tag color={CHAIN_COLOR[h.chain]}>{t(`device.chain.${h.chain}`)}</Tag>
      </div>
      <div className="lift-subheading">{t('lift.panel.nodes')}</div>
      <LampGrid items={nodes} testId="housing-nodes" />
      <div className="lift-subheading">{t('lift.panel.housingIo')}</div>
      <LampGrid items={ioItems} testId="housing-io" />
    </Card>
  );
}

/**
 * The live panels: platform values, platform IO, housing status and IO. `only` splits them
 * when the page places the platform values beside the drawing.
 */
export function LivePanels({
  status,
  only = 'all',
}: {
  status: LiftStatus | null;
  only?: 'all' | 'platform' | 'io';
}) {
  if (only === 'platform') return <PlatformValues status={status} />;
  return (
    <Row gutter={[16, 16]}>
      {only === 'all' ? (
        <Col xs={24}>
          <PlatformValues status={status} />
        </Col>
      ) : null}
      <Col xs={24} xl={10}>
        <PlatformIo status={status} />
      </Col>
      <Col xs={24} xl={14}>
        <HousingPanel status={status} />
      </Col>
    </Row>
  );
}
