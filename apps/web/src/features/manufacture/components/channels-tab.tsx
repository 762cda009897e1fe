import { useState } from 'react';
import { App, Col, Form, InputNumber, Row, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_POLLING_CHANNEL,
  POLLING_CHANNELS,
  POLL_FUNCTION_CODES,
  pollingChannelSchema,
  type PollingChannel,
} from '@liftlink/protocol';
import { issueText } from '../model/errors.ts';
import { useBenchStep } from './bench-context.tsx';
import { ReadButton, WriteButton } from './device-buttons.tsx';

const NUMBER_FIELDS = [
  'slaveAddress',
  'startRegister',
  'count',
  'intervalMs',
  'timeoutMs',
  'retries',
] as const;

/** Polling channels 1 to 10: what the controller reads from the slaves on its RS-485 port. */
export function ChannelsTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { bench, busy, step } = useBenchStep();
  const [channel, setChannel] = useState(1);
  const [form] = Form.useForm<PollingChannel>();

  const read = (n = channel) =>
    step('read', async () => {
      const { settings } = await bench.requireLink().readChannel(n);
      form.setFieldsValue(settings);
    });

  const write = async () => {
    const parsed = pollingChannelSchema.safeParse(form.getFieldsValue(true));
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => ({
          name: String(i.path[0]) as keyof PollingChannel,
          errors: [
            issueText({
              message: i.message,
              params: (i as { params?: Record<string, number> }).params,
            }),
          ],
        })),
      );
      return;
    }
    await step('write', async () => {
      await bench.requireLink().writeChannel({ channel, settings: parsed.data });
      bench.audit('writeChannel', 'ok', { channel, ...parsed.data });
      void message.success(t('manufacture.channels.saved', { n: channel }));
    });
  };

  return (
    <div data-testid="channels-tab">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          value={channel}
          onChange={(n) => {
            setChannel(n);
            form.setFieldsValue(DEFAULT_POLLING_CHANNEL);
            if (bench.serial.link) void read(n);
          }}
          options={Array.from({ length: POLLING_CHANNELS }, (_, i) => ({
            value: i + 1,
            label: t('manufacture.channels.channel', { n: i + 1 }),
          }))}
          style={{ width: 160 }}
          data-testid="channel-select"
          aria-label={t('manufacture.channels.pick')}
        />
        <ReadButton onClick={read} loading={busy === 'read'} />
      </Space>
      <Form form={form} layout="vertical" initialValues={DEFAULT_POLLING_CHANNEL} size="small">
        <Row gutter={12}>
          <Col xs={12} sm={8}>
            <Form.Item
              name="enabled"
              label={t('manufacture.channels.enabled')}
              valuePropName="checked"
            >
              <Switch data-testid="channel-enabled" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item name="functionCode" label={t('manufacture.channels.functionCode')}>
              <Select
                options={POLL_FUNCTION_CODES.map((c) => ({
                  value: c,
                  label: t(`manufacture.channels.fc${c}`),
                }))}
              />
            </Form.Item>
          </Col>
          {NUMBER_FIELDS.map((name) => (
            <Col key={name} xs={12} sm={8}>
              <Form.Item name={name} label={t(`manufacture.channels.${name}`)}>
                <InputNumber style={{ width: '100%' }} data-testid={`channel-${name}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Form>
      <WriteButton onClick={write} loading={busy === 'write'} testId="channel-save" />
    </div>
  );
}
