import { Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { ALARM_TEST_MAX_HOURS, type AlarmDeviceView } from '@liftlink/protocol';
import { DataState } from '../../../components/charts/data-state.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLiftInfo } from '../api/lift-api.ts';

const TIME = 'YYYY-MM-DD HH:mm';

function lastTest(device: AlarmDeviceView) {
  const test = device.lastTest;
  if (!test) return <Tag color="orange">{tx('alarmDevice.noTest')}</Tag>;
  return (
    <span className="alarm-device-test" data-testid="alarm-device-test" data-result={test.result}>
      <Tag color={test.result === 'passed' ? 'green' : 'red'}>
        {tx(`alarmDevice.result.${test.result}`)}
      </Tag>
      {dayjs(test.at).format(TIME)}
      {test.failed.length ? (
        <span className="alarm-device-failed">
          {' · '}
          {test.failed.map((part) => tx(`alarmDevice.part.${part}`)).join(', ')}
        </span>
      ) : null}
    </span>
  );
}

function battery(device: AlarmDeviceView) {
  const { percent, voltage, low } = device.battery;
  const figures = [
    percent !== null ? `${percent} %` : null,
    voltage !== null ? `${voltage} V` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <span data-testid="alarm-device-battery" data-low={String(low)}>
      <Tag color={low ? 'red' : 'green'}>
        {tx(low ? 'alarmDevice.batteryLow' : 'alarmDevice.batteryGood')}
      </Tag>
      {figures}
    </span>
  );
}

/**
 * The lift's emergency-alarm device (EN 81-28): its last self-test and its battery, as the
 * lift last reported them, and a warning when no test has passed within ALARM_TEST_MAX_HOURS
 * (the cloud then raises an alarm-test alert and incident, docs/protocol.md).
 */
export function AlarmDevicePanel({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const info = useLiftInfo(liftId);
  const device = info.data?.alarmDevice ?? null;
  return (
    <Card title={t('alarmDevice.title')} data-testid="panel-alarm-device">
      <DataState
        loading={info.isLoading}
        error={info.data ? null : info.error}
        empty={!device}
        emptyText={t('alarmDevice.empty')}
        onRetry={() => void info.refetch()}
      >
        {device ? (
          <>
            {device.testOverdue ? (
              <p className="alarm-device-overdue" data-testid="alarm-device-overdue">
                <Tag color="red">{t('alarmDevice.overdue', { hours: ALARM_TEST_MAX_HOURS })}</Tag>
              </p>
            ) : null}
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 1, md: 3 }}
              items={[
                { key: 'test', label: t('alarmDevice.lastTest'), children: lastTest(device) },
                { key: 'battery', label: t('alarmDevice.battery'), children: battery(device) },
                {
                  key: 'reported',
                  label: t('alarmDevice.reportedAt'),
                  children: dayjs(device.reportedAt).format(TIME),
                },
              ]}
            />
          </>
        ) : null}
      </DataState>
    </Card>
  );
}
