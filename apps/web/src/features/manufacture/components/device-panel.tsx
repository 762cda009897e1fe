import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Space,
  Tag,
  Typography,
} from 'antd';
import {
  CloudSyncOutlined,
  KeyOutlined,
  ReloadOutlined,
  StopOutlined,
  TagOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { deviceNoSchema, type Handshake, type NewIotCredentials } from '@liftlink/protocol';
import { Access } from '../../../lib/access.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useDeviceSteps } from './use-device-steps.ts';

const MQTT_COLORS: Record<Handshake['mqtt'], string> = {
  none: 'default',
  connecting: 'gold',
  online: 'green',
  refused: 'red',
};

/** The secret is shown here once; it is already written to the controller (or can be written again). */
function SecretModal({
  iot,
  written,
  onWriteAgain,
  onClose,
}: {
  iot: NewIotCredentials | null;
  written: boolean;
  onWriteAgain: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={iot !== null}
      title={t('manufacture.iot.newTitle')}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('manufacture.iot.done')}
    >
      {iot ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="iot-secret-modal">
          <Alert
            type={written ? 'success' : 'warning'}
            showIcon
            message={written ? t('manufacture.iot.written') : t('manufacture.iot.notWritten')}
            action={
              written ? undefined : (
                <Button size="small" onClick={onWriteAgain}>
                  {t('manufacture.iot.writeAgain')}
                </Button>
              )
            }
          />
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('manufacture.device.deviceNo')}>
              {iot.deviceNo}
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.iot.broker')}>{iot.mqttUrl}</Descriptions.Item>
            <Descriptions.Item label={t('manufacture.iot.secret')}>
              <Typography.Text code copyable className="bench-secret" data-testid="iot-secret">
                {iot.secret}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{t('manufacture.iot.shownOnce')}</Typography.Text>
        </Space>
      ) : null}
    </Modal>
  );
}

/**
 * The controller on the cable (handshake) and its cloud record: assign a device number,
 * update the IoT information, get new credentials and write them, reset them.
 */
export function DevicePanel() {
  const { t } = useTranslation();
  const steps = useDeviceSteps();
  const { bench, busy, form, iot } = steps;
  const { handshake, lift, problem } = bench;

  return (
    <Card
      title={t('manufacture.device.title')}
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={steps.refresh}
          loading={busy === 'refresh'}
          data-testid="refresh-handshake"
        >
          {t('manufacture.device.refresh')}
        </Button>
      }
      data-testid="device-panel"
    >
      {problem ? (
        <Alert
          type="error"
          showIcon
          message={problem.text}
          style={{ marginBottom: 12 }}
          data-testid="bench-problem"
          action={
            <Button size="small" onClick={steps.refreshList}>
              {t('manufacture.device.refreshList')}
            </Button>
          }
          closable
          onClose={bench.clearProblem}
        />
      ) : null}
      {!handshake ? (
        <Empty description={t('manufacture.noDevice')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <>
          <Descriptions
            column={{ xs: 1, sm: 2, md: 2, lg: 1, xl: 1, xxl: 2 }}
            size="small"
            data-testid="handshake"
          >
            <Descriptions.Item label={t('manufacture.device.deviceNo')}>
              {handshake.deviceNo ? (
                <Typography.Text strong data-testid="handshake-device-no">
                  {handshake.deviceNo}
                </Typography.Text>
              ) : (
                <Tag color="orange">{t('manufacture.device.unassigned')}</Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.kind')}>
              {t(`device.kind.${handshake.kind}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.floors')}>
              {handshake.floors}
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.firmware')}>
              {handshake.firmware}
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.controllerSerial')}>
              <span data-testid="handshake-serial">{handshake.controllerSerial}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.configVersion')}>
              {handshake.configVersion}{' '}
              {handshake.configSaved ? null : (
                <Tag color="orange">{t('manufacture.device.unsaved')}</Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.mqtt')}>
              <Tag color={MQTT_COLORS[handshake.mqtt]} data-testid="handshake-mqtt">
                {t(`manufacture.device.mqtt.${handshake.mqtt}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.firmwareKey')}>
              <span data-testid="handshake-firmware-key">
                {handshake.firmwareKeyIds?.length
                  ? handshake.firmwareKeyIds.join(', ')
                  : t('manufacture.device.firmwareKeyNone')}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('manufacture.device.cloud')}>
              {lift ? (
                <Space size={4} wrap>
                  <Tag color={lift.online ? 'green' : 'default'} data-testid="cloud-online">
                    {lift.online ? t('manufacture.device.online') : t('manufacture.device.offline')}
                  </Tag>
                  <Tag color={lift.hasCredentials ? 'blue' : 'default'}>
                    {lift.hasCredentials ? t('manufacture.iot.issued') : t('manufacture.iot.none')}
                  </Tag>
                </Space>
              ) : (
                <Tag>{t('manufacture.device.notRegistered')}</Tag>
              )}
            </Descriptions.Item>
          </Descriptions>
          {!handshake.deviceNo ? (
            <Alert
              type="warning"
              showIcon
              message={t('errors.lift.noDeviceNo')}
              style={{ margin: '12px 0' }}
              data-testid="no-device-no"
            />
          ) : null}
        </>
      )}
      <Access check="manufacture.edit">
        <Form
          form={form}
          layout="vertical"
          className="bench-assign"
          onFinish={() => void steps.assign()}
        >
          <Form.Item
            label={t('manufacture.device.assignLabel')}
            required
            style={{ marginBottom: 8 }}
          >
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="deviceNo"
                noStyle
                rules={[zodRule(deviceNoSchema)]}
                normalize={(v: string) => v?.toUpperCase()}
              >
                <Input
                  placeholder={t('manufacture.device.assignPlaceholder')}
                  data-testid="assign-input"
                  maxLength={32}
                />
              </Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                icon={<TagOutlined />}
                loading={busy === 'assign'}
                data-testid="assign-submit"
              >
                {t('manufacture.device.assign')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item shouldUpdate noStyle>
            {() => {
              const errors = form.getFieldError('deviceNo');
              return errors.length ? (
                <Typography.Text type="danger">{errors[0]}</Typography.Text>
              ) : null;
            }}
          </Form.Item>
        </Form>
      </Access>
      <Space wrap style={{ marginTop: 12 }}>
        <Access check="manufacture.edit">
          <Button
            icon={<CloudSyncOutlined />}
            onClick={() => void steps.updateInfo()}
            loading={busy === 'update'}
            data-testid="update-iot-info"
          >
            {t('manufacture.iot.update')}
          </Button>
        </Access>
        <Access check="manufacture.add">
          <Button
            type="primary"
            ghost
            icon={<KeyOutlined />}
            onClick={() => void steps.newCredentials()}
            loading={busy === 'iot'}
            data-testid="new-iot"
          >
            {t('manufacture.iot.getNew')}
          </Button>
        </Access>
        <Access check="manufacture.delete">
          <Button
            danger
            icon={<StopOutlined />}
            disabled={!lift?.hasCredentials}
            onClick={steps.reset}
            loading={busy === 'reset'}
            data-testid="reset-iot"
          >
            {t('manufacture.iot.reset')}
          </Button>
        </Access>
      </Space>
      <SecretModal
        iot={iot?.creds ?? null}
        written={iot?.written ?? false}
        onWriteAgain={steps.writeAgain}
        onClose={steps.closeSecret}
      />
    </Card>
  );
}
