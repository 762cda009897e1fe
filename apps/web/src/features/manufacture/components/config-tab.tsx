import { useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Col,
  Form,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import {
  CloudUploadOutlined,
  DownloadOutlined,
  SaveOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  configField,
  defaultConfig,
  validateConfigChange,
  type ConfigField,
  type ConfigIssue,
  type LiftConfig,
} from '@liftlink/protocol';
import { Access } from '../../../lib/access.tsx';
import { ApiError } from '../../../lib/http.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import {
  configSections,
  fieldLabel,
  formToConfig,
  issueField,
  unitLabel,
  type ConfigFormValues,
} from '../../../lib/config-model.ts';
import { manufactureApi, type ConfigBody } from '../api/manufacture-api.ts';
import { issueText } from '../model/errors.ts';
import { useBenchStep } from './bench-context.tsx';

/** The control of one field; Form.Item hands it `value` / `checked` and `onChange`, passed on here. */
function FieldInput({ field, ...control }: { field: ConfigField } & Record<string, unknown>) {
  const label = fieldLabel(field.key);
  if (field.type === 'boolean') return <Switch {...control} aria-label={label} />;
  if (field.type === 'enum')
    return (
      <Select
        {...control}
        aria-label={label}
        options={(field.options ?? []).map((o) => ({
          value: o,
          label: tx(`config.option.${field.baseKey}.${o}`),
        }))}
      />
    );
  return (
    <InputNumber
      {...control}
      aria-label={label}
      step={field.step ?? 1}
      min={field.min}
      max={field.max}
      style={{ width: '100%' }}
      suffix={field.unit ? unitLabel(field) : undefined}
    />
  );
}

type Source = 'device' | 'cloud' | 'defaults';

/**
 * The lift's configuration at the bench: read it from the controller (or start from the
 * cloud's copy or the kind's defaults), save it to the controller's flash over the cable,
 * or send it to the online lift through the cloud (whole configuration, or the run
 * settings only).
 */
export function ConfigTab() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { bench, busy, step } = useBenchStep();
  const { handshake, lift } = bench;
  const floors = handshake?.floors ?? lift?.floors ?? 2;
  const kind = handshake?.kind ?? lift?.kind ?? 'inclinedStraightRack';
  const sections = useMemo(() => configSections(floors), [floors]);
  const [form] = Form.useForm<ConfigFormValues>();
  const [source, setSource] = useState<Source | null>(null);
  const [device, setDevice] = useState<{ version: number; config: LiftConfig } | null>(null);

  const load = (values: LiftConfig, from: Source) => {
    form.resetFields();
    form.setFieldsValue(values);
    setSource(from);
  };

  const showIssues = (issues: ConfigIssue[]) => {
    const known = issues.filter((i) => configField(issueField(i.path)));
    form.setFields(known.map((i) => ({ name: issueField(i.path), errors: [issueText(i)] })));
    void message.error(
      known[0]
        ? `${fieldLabel(issueField(known[0].path))}: ${issueText(known[0])}`
        : t('errors.config.invalid'),
    );
  };

  const readDevice = () =>
    step('read', async () => {
      const read = await bench.requireLink().readConfig();
      setDevice({ version: read.version, config: read.config });
      load(read.config, 'device');
      void message.success(t('manufacture.config.readDone', { version: read.version }));
    });

  const current = (): LiftConfig | null => {
    if (!source) {
      void message.warning(t('manufacture.config.loadFirst'));
      return null;
    }
    const config = formToConfig(form.getFieldsValue(true), floors);
    const base = device && device.version > 0 ? device.config : null;
    const issues = validateConfigChange(base, config, floors);
    if (issues.length) {
      showIssues(issues);
      return null;
    }
    return config;
  };

  const saveToDevice = () => {
    const config = current();
    if (!config) return;
    return step('save', async () => {
      const link = bench.requireLink();
      const baseVersion = device?.version ?? (await link.readConfig()).version;
      try {
        const { version } = await link.writeConfig({ baseVersion, config });
        await link.saveConfig();
        setDevice({ version, config });
        bench.audit('writeConfig', 'ok', { version });
        void message.success(t('manufacture.config.savedToDevice', { version }));
        await bench.refresh();
      } catch (error) {
        bench.audit('writeConfig', 'failed', {
          code: (error as { code?: string }).code ?? 'unknown',
        });
        const issues = (error as { issues?: ConfigIssue[] }).issues;
        if (issues?.length) return showIssues(issues);
        throw error;
      }
    });
  };

  const sendToCloud = (which: 'lift' | 'run') => {
    if (!lift) {
      void message.warning(t('manufacture.device.notRegistered'));
      return;
    }
    const config = current();
    if (!config) return;
    const body: ConfigBody = {
      liftId: lift.id,
      version: lift.configVersion,
      config:
        which === 'lift'
          ? config
          : Object.fromEntries(
              Object.entries(config).filter(([k]) => configField(k)?.part === 'run'),
            ),
    };
    const send = (confirm: boolean) =>
      step(which, async () => {
        try {
          await (which === 'lift' ? manufactureApi.setLiftConfig : manufactureApi.setRunConfig)({
            ...body,
            ...(confirm ? { confirmReconfigure: true } : {}),
          });
          void message.success(t('manufacture.config.sent'));
          const found = await manufactureApi.lookup({ deviceNo: lift.deviceNo ?? undefined });
          bench.setLift(found.lift);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'config.reconfigure') {
            modal.confirm({ title: t('errors.config.reconfigure'), onOk: () => send(true) });
            return;
          }
          if (error instanceof ApiError && error.issues.length) return showIssues(error.issues);
          throw error;
        }
      });
    return send(false);
  };

  return (
    <div data-testid="config-tab">
      <Space wrap style={{ marginBottom: 12 }}>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => void readDevice()}
          loading={busy === 'read'}
          data-testid="config-read"
        >
          {t('manufacture.config.readDevice')}
        </Button>
        <Button onClick={() => lift?.config && load(lift.config, 'cloud')} disabled={!lift?.config}>
          {t('manufacture.config.loadCloud')}
        </Button>
        <Button onClick={() => load(defaultConfig(kind, floors), 'defaults')}>
          {t('manufacture.config.loadDefaults')}
        </Button>
        {source ? <Tag color="blue">{t(`manufacture.config.source.${source}`)}</Tag> : null}
      </Space>
      {!source ? (
        <Alert
          type="info"
          showIcon
          message={t('manufacture.config.loadFirst')}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Form form={form} layout="vertical" disabled={!source} size="small">
        <Tabs
          size="small"
          items={sections.map((section) => ({
            key: section.part,
            label: t(`config.part.${section.part}`),
            children: section.groups.map(({ group, fields }) => (
              <div key={group} className="bench-config-group">
                <Typography.Text strong>{t(`config.group.${group}`)}</Typography.Text>
                <Row gutter={12}>
                  {fields.map((field) => (
                    <Col key={field.key} xs={field.type === 'boolean' ? 12 : 24} sm={12} xl={8}>
                      <Form.Item
                        name={field.key}
                        label={fieldLabel(field.key)}
                        valuePropName={field.type === 'boolean' ? 'checked' : 'value'}
                      >
                        <FieldInput field={field} />
                      </Form.Item>
                    </Col>
                  ))}
                </Row>
              </div>
            )),
          }))}
        />
      </Form>
      <Access check="manufacture.edit">
        <Space wrap>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            onClick={() => void saveToDevice()}
            loading={busy === 'save'}
            data-testid="config-save-device"
          >
            {t('manufacture.config.saveToDevice')}
          </Button>
          <Button
            icon={<CloudUploadOutlined />}
            onClick={() => void sendToCloud('lift')}
            loading={busy === 'lift'}
            data-testid="config-set-lift"
          >
            {t('manufacture.config.setLift')}
          </Button>
          <Button
            icon={<SendOutlined />}
            onClick={() => void sendToCloud('run')}
            loading={busy === 'run'}
            data-testid="config-set-run"
          >
            {t('manufacture.config.setRun')}
          </Button>
        </Space>
      </Access>
    </div>
  );
}
