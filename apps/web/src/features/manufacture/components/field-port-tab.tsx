import { App, Form, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_FIELD_PORT_SETTINGS,
  portSettingsSchema,
  type PortSettings,
} from '@liftlink/protocol';
import { useBenchStep } from './bench-context.tsx';
import { ReadButton, WriteButton } from './device-buttons.tsx';
import { PortSettingsFields } from './serial-panel.tsx';

/** The controller's RS-485 port to the slaves it polls (spec: serial port set up successfully). */
export function FieldPortTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { bench, busy, step } = useBenchStep();
  const [form] = Form.useForm<PortSettings>();

  const read = () =>
    step('read', async () => {
      form.setFieldsValue(await bench.requireLink().readPort());
    });

  const write = () =>
    step('write', async () => {
      const settings = portSettingsSchema.parse(form.getFieldsValue(true));
      await bench.requireLink().writePort(settings);
      bench.audit('writePort', 'ok', settings);
      void message.success(t('manufacture.fieldPort.saved'));
    });

  return (
    <div data-testid="field-port-tab">
      <Typography.Paragraph type="secondary">
        {t('manufacture.fieldPort.intro')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={DEFAULT_FIELD_PORT_SETTINGS} size="small">
        <PortSettingsFields prefix="field-port" />
      </Form>
      <Space wrap>
        <ReadButton onClick={read} loading={busy === 'read'} />
        <WriteButton onClick={write} loading={busy === 'write'} testId="field-port-save" />
      </Space>
    </div>
  );
}
