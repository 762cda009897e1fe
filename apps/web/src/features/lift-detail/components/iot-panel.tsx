import { useState } from 'react';
import { Button, Card, Descriptions, Form, Input, InputNumber } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { iotInfoSchema } from '@liftlink/protocol';
import { DataState } from '../../../components/charts/data-state.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { liftAllows } from '../../../lib/access.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useIotUpdate, useLiftInfo } from '../api/lift-api.ts';
import {
  IOT_INFO_FIELDS,
  hasIotInfo,
  signalBars,
  toIotInfo,
  type IotForm,
  type IotInfo,
} from '../model/iot-info.ts';

/** Signal strength in dBm with bars and a word for it. */
export function SignalStrength({ dbm }: { dbm: number }) {
  const { t } = useTranslation();
  const bars = signalBars(dbm);
  return (
    <span className="iot-signal" data-testid="iot-signal" data-bars={bars}>
      <span className="iot-signal-bars" aria-hidden>
        {[1, 2, 3, 4].map((n) => (
          <span key={n} className={n <= bars ? 'on' : undefined} style={{ height: 3 + n * 3 }} />
        ))}
      </span>
      {t('iot.signalValue', { dbm })}
      {' · '}
      {tx(`iot.signalLevel.${bars}`)}
    </span>
  );
}

function iotValue(key: (typeof IOT_INFO_FIELDS)[number], info: IotInfo) {
  const value = info[key];
  if (value === undefined || value === '') return null;
  if (key === 'signal' && typeof value === 'number') return <SignalStrength dbm={value} />;
  return <span className="iot-value">{value}</span>;
}

/** The lift's IoT details (SIM card, module, signal), editable with lift.edit. */
export function IotPanel({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const info = useLiftInfo(liftId);
  const [editing, setEditing] = useState(false);
  const lift = info.data?.lift;
  const iot = lift?.iotInfo ?? {};
  const canEdit = lift ? liftAllows(lift, 'lift.edit') : false;
  return (
    <Card
      title={t('iot.title')}
      data-testid="panel-iot"
      extra={
        canEdit ? (
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing(true)}
            aria-label={t('iot.edit')}
            data-testid="iot-edit"
          >
            {t('common.edit')}
          </Button>
        ) : null
      }
    >
      <DataState
        loading={info.isLoading}
        error={info.data ? null : info.error}
        empty={!hasIotInfo(iot)}
        emptyText={t('iot.empty')}
        onRetry={() => void info.refetch()}
      >
        <Descriptions
          size="small"
          className="iot-facts"
          column={{ xs: 1, sm: 1, md: 2, xl: 3 }}
          items={IOT_INFO_FIELDS.map((key) => ({
            key,
            label: tx(`iot.${key}`),
            children: iotValue(key, iot) ?? <span className="iot-missing">{t('iot.empty')}</span>,
          }))}
        />
      </DataState>
      {lift && canEdit ? (
        <IotModal
          open={editing}
          liftId={liftId}
          name={lift.alias || lift.deviceNo || t('lift.unnamed')}
          info={iot}
          onClose={() => setEditing(false)}
        />
      ) : null}
    </Card>
  );
}

const shape = iotInfoSchema.shape;

/** The IoT form: every field optional, each checked by the protocol's schema before it is sent. */
function IotModal({
  open,
  liftId,
  name,
  info,
  onClose,
}: {
  open: boolean;
  liftId: string;
  name: string;
  info: IotInfo;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<IotForm>();
  const save = useIotUpdate(liftId);

  return (
    <FormModal
      open={open}
      title={t('iot.editTitle', { name })}
      form={form}
      initialValues={{ ...info }}
      save={(values) => save.mutateAsync(toIotInfo(values))}
      onClose={onClose}
      testId="iot-modal"
    >
      <Form.Item
        name="iccid"
        label={t('iot.iccid')}
        extra={t('iot.iccidHint')}
        rules={[zodRule(shape.iccid)]}
      >
        <Input maxLength={22} inputMode="numeric" data-testid="iot-iccid" />
      </Form.Item>
      <Form.Item name="carrier" label={t('iot.carrier')} rules={[zodRule(shape.carrier)]}>
        <Input maxLength={60} data-testid="iot-carrier" />
      </Form.Item>
      <Form.Item name="apn" label={t('iot.apn')} rules={[zodRule(shape.apn)]}>
        <Input maxLength={60} data-testid="iot-apn" />
      </Form.Item>
      <Form.Item name="module" label={t('iot.module')} rules={[zodRule(shape.module)]}>
        <Input maxLength={60} data-testid="iot-module" />
      </Form.Item>
      <Form.Item
        name="signal"
        label={t('iot.signal')}
        extra={t('iot.signalHint')}
        rules={[zodRule(shape.signal)]}
      >
        <InputNumber style={{ width: '100%' }} data-testid="iot-signal-input" />
      </Form.Item>
      <Form.Item name="notes" label={t('iot.notes')} rules={[zodRule(shape.notes)]}>
        <Input.TextArea maxLength={300} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
    </FormModal>
  );
}
