import { useCallback, useState } from 'react';
import {
  App,
  AutoComplete,
  Button,
  Card,
  Col,
  ConfigProvider,
  Form,
  InputNumber,
  Row,
  Segmented,
  Select,
  Space,
  Tag,
  Tooltip,
} from 'antd';
import {
  ApiOutlined,
  DownloadOutlined,
  LinkOutlined,
  QuestionCircleOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  BAUD_RATES,
  DEFAULT_PORT_SETTINGS,
  PARITIES,
  documentDownloadPath,
  type PortSettings,
} from '@liftlink/protocol';
import { useDocuments } from '../api/manufacture-api.ts';
import { benchProblem } from '../model/errors.ts';
import { BridgeError } from '../serial/bridge-client.ts';
import { useBench } from './bench-context.tsx';
import { InstructionsModal } from './instructions-modal.tsx';
import { PairingModal } from './pairing-modal.tsx';

interface PortForm extends PortSettings {
  path?: string;
}

/** Port settings (baud rate, data bits, parity, stop bits) as selects. */
export function PortSettingsFields({
  disabled = false,
  prefix = 'port',
}: {
  disabled?: boolean;
  prefix?: string;
}) {
  const { t } = useTranslation();
  const fields: {
    name: keyof PortSettings;
    options: { value: number | string; label: string }[];
  }[] = [
    { name: 'baudRate', options: BAUD_RATES.map((b) => ({ value: b, label: String(b) })) },
    { name: 'dataBits', options: [7, 8].map((b) => ({ value: b, label: String(b) })) },
    {
      name: 'parity',
      options: PARITIES.map((p) => ({ value: p, label: t(`manufacture.port.parity.${p}`) })),
    },
    { name: 'stopBits', options: [1, 2].map((b) => ({ value: b, label: String(b) })) },
  ];
  return (
    <Row gutter={12}>
      {fields.map(({ name, options }) => (
        <Col key={name} xs={12} sm={6} lg={12} xxl={6}>
          <Form.Item name={name} label={t(`manufacture.port.${name}`)}>
            <Select disabled={disabled} options={options} data-testid={`${prefix}-${name}`} />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}

/**
 * The serial port: Web Serial or the bridge (plugin), port settings, open and close, and
 * the plugin's download, registration (pairing) and usage instructions.
 */
export function SerialPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const bench = useBench();
  const { serial } = bench;
  const [form] = Form.useForm<PortForm>();
  const [pairing, setPairing] = useState(false);
  const [help, setHelp] = useState(false);
  const closePairing = useCallback(() => setPairing(false), []);
  const documents = useDocuments();
  const bridgeDoc = documents.data?.list.find((d) => d.kind === 'bridge');
  const isOpen = serial.status === 'open';
  const useBridge = serial.mode === 'bridge';

  const refreshPorts = () =>
    serial.bridge.refreshPorts().catch((error: unknown) => {
      const problem = benchProblem(error);
      if (problem) void message.error(problem.text);
    });

  const open = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    if (useBridge && !values.path) {
      form.setFields([{ name: 'path', errors: [t('manufacture.serial.pickPort')] }]);
      return;
    }
    try {
      const { path, ...settings } = values;
      await serial.open(settings, path);
      void message.success(t('manufacture.serial.opened'));
      // A freshly opened port: read the controller at once.
      await bench.run(bench.refresh);
    } catch (error) {
      const notPaired =
        error instanceof BridgeError && (error.code === 'notPaired' || error.code === 'badToken');
      void message.error(
        notPaired ? t('manufacture.bridge.registerFirst') : t('manufacture.serial.cannotOpen'),
      );
    }
  };

  return (
    <Card
      title={t('manufacture.serial.title')}
      extra={
        <Tag color={isOpen ? 'green' : 'default'} data-testid="serial-status">
          {isOpen ? t('manufacture.serial.statusOpen') : t('manufacture.serial.statusClosed')}
        </Tag>
      }
      data-testid="serial-panel"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={DEFAULT_PORT_SETTINGS}
        disabled={serial.status !== 'closed'}
      >
        <Form.Item label={t('manufacture.serial.connection')}>
          <Segmented
            block
            value={serial.mode}
            onChange={(v) => serial.setMode(v as typeof serial.mode)}
            options={[
              {
                value: 'webSerial',
                disabled: !serial.webSerial,
                label: (
                  <Tooltip
                    title={serial.webSerial ? undefined : t('manufacture.serial.noWebSerial')}
                  >
                    <span data-testid="mode-web-serial">{t('manufacture.serial.webSerial')}</span>
                  </Tooltip>
                ),
              },
              {
                value: 'bridge',
                label: <span data-testid="mode-bridge">{t('manufacture.serial.bridge')}</span>,
              },
            ]}
          />
        </Form.Item>
        {useBridge ? (
          <>
            <div className="bench-bridge-row">
              {/* a status, not a control: it keeps its colour while the form is locked */}
              <ConfigProvider componentDisabled={false}>
                <Tag color={serial.bridge.paired ? 'blue' : 'orange'} data-testid="bridge-status">
                  {serial.bridge.paired
                    ? serial.bridge.user
                      ? t('manufacture.bridge.pairedAs', { user: serial.bridge.user })
                      : t('manufacture.bridge.paired')
                    : t('manufacture.bridge.notPaired')}
                </Tag>
              </ConfigProvider>
              <InputNumber
                size="small"
                min={1}
                max={65535}
                value={serial.bridge.port}
                onChange={(v) => v && serial.bridge.setPort(v)}
                prefix={t('manufacture.bridge.port')}
                style={{ width: 150 }}
                aria-label={t('manufacture.bridge.port')}
              />
            </div>
            <Form.Item label={t('manufacture.serial.port')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="path" noStyle>
                  <AutoComplete
                    data-testid="serial-path"
                    placeholder={t('manufacture.serial.portPlaceholder')}
                    options={serial.bridge.ports.map((p) => ({
                      value: p.path,
                      label: p.manufacturer ? `${p.path} (${p.manufacturer})` : p.path,
                    }))}
                    onFocus={() => void refreshPorts()}
                  />
                </Form.Item>
                <Tooltip title={t('manufacture.serial.refreshPorts')}>
                  <Button
                    icon={<ReloadOutlined />}
                    onClick={() => void refreshPorts()}
                    aria-label={t('manufacture.serial.refreshPorts')}
                  />
                </Tooltip>
              </Space.Compact>
            </Form.Item>
          </>
        ) : null}
        <PortSettingsFields disabled={serial.status !== 'closed'} />
      </Form>
      <Space wrap>
        {isOpen ? (
          <Button onClick={() => void serial.close()} data-testid="serial-close">
            {t('manufacture.serial.close')}
          </Button>
        ) : (
          <Button
            type="primary"
            icon={<ApiOutlined />}
            loading={serial.status === 'opening'}
            onClick={() => void open()}
            data-testid="serial-open"
          >
            {t('manufacture.serial.open')}
          </Button>
        )}
        <Button
          icon={<LinkOutlined />}
          onClick={() => setPairing(true)}
          data-testid="bridge-register"
        >
          {t('manufacture.bridge.register')}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          href={bridgeDoc ? documentDownloadPath(bridgeDoc.id, bridgeDoc.name) : undefined}
          disabled={!bridgeDoc}
          data-testid="bridge-download"
        >
          {t('manufacture.bridge.download')}
        </Button>
        <Button
          icon={<QuestionCircleOutlined />}
          onClick={() => setHelp(true)}
          data-testid="bench-help"
        >
          {t('manufacture.help.title')}
        </Button>
      </Space>
      <PairingModal open={pairing} onClose={closePairing} />
      <InstructionsModal open={help} onClose={() => setHelp(false)} />
    </Card>
  );
}
