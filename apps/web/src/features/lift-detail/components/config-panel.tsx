import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Form,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Tabs,
  Tag,
  Tooltip,
  Upload,
} from 'antd';
import {
  CloudDownloadOutlined,
  CloudUploadOutlined,
  EditOutlined,
  ExportOutlined,
  ImportOutlined,
  LockOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  configField,
  defaultConfig,
  refusalText,
  type CommandResult,
  type ConfigField,
  type ConfigIssue,
  type ConfigPart,
  type LiftConfig,
  type LiftInfo,
  type PermissionCheck,
} from '@liftlink/protocol';
import { liftAllows } from '../../../lib/access.tsx';
import { saveTextFile } from '../../../lib/download.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { ApiError } from '../../../lib/http.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { liftApi, liftDetailKeys } from '../api/lift-api.ts';
import {
  configDiff,
  configFile,
  configFileName,
  configIssues,
  configIssueText,
  configSections,
  fieldLabel,
  formToConfig,
  issueField,
  parseConfigFile,
  unitLabel,
  type ConfigChange,
  type ConfigFormValues,
} from '../../../lib/config-model.ts';
import { ConfigDiffTable } from './config-diff.tsx';
import { ConfigHistory } from './config-history.tsx';

/** Spec section 4: editing disabled -> enabled -> saved. */
type Flow = 'disabled' | 'enabled' | 'saved';

/** Fields whose rule reads another field: re-checked when that one changes. */
function dependenciesOf(field: ConfigField): string[] {
  switch (field.key) {
    case 'rapidSpeed':
      return ['speedLimit', 'slowSpeed'];
    case 'slowSpeed':
      return ['rapidSpeed'];
    case 'highValue':
      return ['lowValue'];
    default:
      if (field.baseKey === 'parkingMemory' && field.floor)
        return [
          'lowValue',
          'highValue',
          ...(field.floor > 1 ? [`parkingMemory${field.floor - 1}`] : []),
        ];
      return [];
  }
}

/** Form.Item hands its control `id`, `value` and `onChange`: they go on to the input. */
interface ControlProps {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

function FieldInput({
  field,
  disabled,
  ...control
}: { field: ConfigField; disabled: boolean } & ControlProps) {
  const { t } = useTranslation();
  if (field.type === 'enum')
    return (
      <Select
        {...control}
        value={control.value as string | undefined}
        disabled={disabled}
        options={(field.options ?? []).map((option) => ({
          value: option,
          label: tx(`config.option.${field.baseKey}.${option}`),
        }))}
        data-testid={`config-input-${field.key}`}
        aria-label={fieldLabel(field.key)}
      />
    );
  return (
    <InputNumber<number>
      {...control}
      value={control.value as number | null | undefined}
      disabled={disabled}
      step={field.step ?? 1}
      style={{ width: '100%' }}
      suffix={field.unit ? <span className="lift-muted">{unitLabel(field)}</span> : undefined}
      placeholder={
        field.min !== undefined && field.max !== undefined
          ? t('config.range', { min: field.min, max: field.max })
          : undefined
      }
      data-testid={`config-input-${field.key}`}
      aria-label={fieldLabel(field.key)}
    />
  );
}

function toFormValues(config: LiftConfig | null): ConfigFormValues {
  return { ...(config ?? {}) };
}

/**
 * The lift's configuration as forms generated from the protocol's CONFIG_FIELDS: running,
 * platform and housing parts, grouped. Editing is off until "Edit"; "Review and send"
 * validates with the shared rules, shows the difference, and sends; a configured lift
 * asks to confirm reconfiguration. Read from the lift, history, export and import.
 */
export function ConfigPanel({ info, online }: { info: LiftInfo; online: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const { lift } = info;
  const liftId = lift.id;
  const floors = lift.floors;
  // What this user may do with this lift, and which fields a write may touch: the server's answer.
  const can = (check: PermissionCheck) => liftAllows(lift, check);
  const role = lift.access.configRole;
  const canEdit = can('liftConfig.edit');
  const [form] = Form.useForm<ConfigFormValues>();
  const [flow, setFlow] = useState<Flow>('disabled');
  const [editVersion, setEditVersion] = useState(lift.configVersion);
  const [part, setPart] = useState<ConfigPart>('run');
  const [review, setReview] = useState<{ config: LiftConfig; changes: ConfigChange[] } | null>(
    null,
  );
  const [importProblem, setImportProblem] = useState<{
    error: string | null;
    issues: ConfigIssue[];
  } | null>(null);
  const [busy, setBusy] = useState<'read' | 'send' | null>(null);
  const sections = useMemo(() => configSections(floors), [floors]);
  const current = info.config;
  const editing = flow === 'enabled';

  // While not editing, the form shows what the lift holds.
  useEffect(() => {
    if (!editing) form.setFieldsValue(toFormValues(current));
  }, [current, editing, form]);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: liftDetailKeys.info(liftId) }),
      client.invalidateQueries({ queryKey: liftDetailKeys.configLogs(liftId) }),
    ]);

  const startEditing = (values: LiftConfig | null) => {
    form.resetFields();
    form.setFieldsValue(toFormValues(values ?? current ?? defaultConfig(lift.kind, floors)));
    setEditVersion(lift.configVersion);
    setImportProblem(null);
    setFlow('enabled');
  };

  const cancelEditing = () => {
    form.resetFields();
    form.setFieldsValue(toFormValues(current));
    setFlow('disabled');
  };

  const rule = (key: string) => ({
    validator: async () => {
      if (!editing) return;
      const next = formToConfig(form.getFieldsValue(true), floors);
      const issue = configIssues(current, next, floors).find((i) => i.path === key);
      if (issue) throw new Error(configIssueText(issue));
    },
  });

  const showIssues = (issues: ConfigIssue[]) => {
    const known = issues.filter((i) => configField(issueField(i.path)));
    form.setFields(known.map((i) => ({ name: issueField(i.path), errors: [configIssueText(i)] })));
    const first = known[0] ? configField(issueField(known[0].path)) : undefined;
    if (first) {
      setPart(first.part);
      setTimeout(() => form.scrollToField(first.key, { block: 'center' }), 50);
    }
  };

  const openReview = async () => {
    const failed = await form.validateFields().then(
      () => null,
      (error: { errorFields?: { name: (string | number)[] }[] }) => error.errorFields ?? [],
    );
    if (failed && failed.length > 0) {
      const first = configField(String(failed[0]!.name[0]));
      if (first) {
        setPart(first.part);
        setTimeout(() => form.scrollToField(first.key, { block: 'center' }), 50);
      }
      return;
    }
    const next = formToConfig(form.getFieldsValue(true), floors);
    const issues = configIssues(current, next, floors);
    if (issues.length > 0) {
      showIssues(issues);
      return;
    }
    setReview({ config: next, changes: configDiff(current, next) });
  };

  const send = async (config: LiftConfig, confirmReconfigure: boolean) => {
    setBusy('send');
    try {
      await liftApi.writeConfig({
        liftId,
        config,
        version: editVersion,
        ...(confirmReconfigure ? { confirmReconfigure: true } : {}),
      });
      setReview(null);
      setFlow('saved');
      void message.success(t('config.saved'));
      await refresh();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'config.reconfigure') {
        void modal.confirm({
          title: t('config.reconfigure.title'),
          content: t('config.reconfigure.text'),
          okText: t('config.reconfigure.ok'),
          cancelText: t('common.cancel'),
          onOk: () => send(config, true),
        });
        return;
      }
      const result =
        error instanceof ApiError ? (error.result as Partial<CommandResult> | null) : null;
      const issues = error instanceof ApiError ? [...error.issues, ...(result?.issues ?? [])] : [];
      if (issues.length > 0) {
        setReview(null);
        showIssues(issues);
      }
      if (error instanceof ApiError && error.code === 'lift.refused' && result?.reason)
        void message.error(t('config.refused', { reason: refusalText(result.reason, language) }));
      else if (error instanceof ApiError && error.code === 'validation.failed')
        void message.error(t('config.saveFailed'));
      else {
        const text = errorMessage(error);
        if (text) void message.error(text);
      }
    } finally {
      setBusy(null);
    }
  };

  const readFromLift = async () => {
    setBusy('read');
    try {
      const result = await liftApi.readConfig(liftId);
      client.setQueryData<LiftInfo>(liftDetailKeys.info(liftId), (old) =>
        old
          ? { ...old, config: result.config, lift: { ...old.lift, configVersion: result.version } }
          : old,
      );
      form.setFieldsValue(toFormValues(result.config));
      void message.success(t('config.readDone', { version: result.version }));
      await refresh();
    } catch (error) {
      const text = errorMessage(error);
      if (text) void message.error(text);
    } finally {
      setBusy(null);
    }
  };

  const exportFile = () => {
    const config = editing ? formToConfig(form.getFieldsValue(true), floors) : current;
    if (!config) return;
    saveTextFile(
      JSON.stringify(configFile(lift, config), null, 2),
      configFileName(lift.deviceNo),
      'application/json;charset=utf-8',
    );
  };

  const importFile = async (file: File) => {
    const text = await file.text();
    const result = parseConfigFile(text, lift, current, role);
    if (!result.ok) {
      setImportProblem({ error: result.error, issues: result.issues });
      return;
    }
    setImportProblem(null);
    startEditing(result.config);
    setReview({ config: result.config, changes: configDiff(current, result.config) });
  };

  const flowColor = { disabled: 'default', enabled: 'processing', saved: 'success' } as const;
  const changedMeanwhile = editing && lift.configVersion !== editVersion;

  const toolbar = (
    <Space wrap>
      <Tag color={flowColor[flow]} data-testid="config-flow" data-flow={flow}>
        {t(`config.flow.${flow}`)}
      </Tag>
      <Tooltip title={!online ? t('config.offline') : null}>
        <Button
          icon={<CloudDownloadOutlined />}
          onClick={() => void readFromLift()}
          loading={busy === 'read'}
          disabled={!online || editing || !lift.deviceNo}
          data-testid="config-read"
        >
          {t('config.read')}
        </Button>
      </Tooltip>
      {canEdit && !editing ? (
        <Button
          type="primary"
          icon={<EditOutlined />}
          onClick={() => startEditing(null)}
          data-testid="config-edit"
        >
          {t('config.edit')}
        </Button>
      ) : null}
      {canEdit && editing ? (
        <>
          <Tooltip title={!online ? t('config.offline') : null}>
            <Button
              type="primary"
              icon={<SendOutlined />}
              onClick={() => void openReview()}
              disabled={!online}
              data-testid="config-review"
            >
              {t('config.review')}
            </Button>
          </Tooltip>
          <Button onClick={cancelEditing} data-testid="config-cancel">
            {t('common.cancel')}
          </Button>
        </>
      ) : null}
      {can('liftConfig.export') ? (
        <Button
          icon={<ExportOutlined />}
          onClick={exportFile}
          disabled={!current && !editing}
          data-testid="config-export"
        >
          {t('config.export')}
        </Button>
      ) : null}
      {canEdit && can('liftConfig.import') ? (
        <Upload
          accept=".json,application/json"
          showUploadList={false}
          beforeUpload={(file) => {
            void importFile(file);
            return false;
          }}
        >
          <Button icon={<ImportOutlined />} data-testid="config-import">
            {t('config.import')}
          </Button>
        </Upload>
      ) : null}
    </Space>
  );

  return (
    <div className="config-panel" data-testid="config-panel">
      <Card title={t('config.title')} extra={null}>
        <div className="config-toolbar">{toolbar}</div>
        {importProblem ? (
          <Alert
            type="error"
            showIcon
            closable={{ onClose: () => setImportProblem(null) }}
            className="lift-panel-alert"
            data-testid="config-import-problem"
            title={
              importProblem.error
                ? t(importProblem.error as 'config.file.invalid')
                : t('config.file.problems')
            }
            description={
              importProblem.issues.length > 0 ? (
                <ul className="config-issue-list">
                  {importProblem.issues.map((issue) => (
                    <li key={issue.path} data-testid="config-import-issue" data-path={issue.path}>
                      {configField(issue.path) ? `${fieldLabel(issue.path)}: ` : `${issue.path}: `}
                      {configIssueText(issue)}
                    </li>
                  ))}
                </ul>
              ) : (
                t('config.file.nothingSent')
              )
            }
          />
        ) : null}
        {changedMeanwhile ? (
          <Alert
            type="warning"
            showIcon
            className="lift-panel-alert"
            title={t('config.changedMeanwhile')}
          />
        ) : null}
        {!current && !editing ? (
          <Empty description={t('config.none')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : null}
        {role === 'operator' && editing ? (
          <Alert
            type="info"
            showIcon
            className="lift-panel-alert"
            title={t('config.operatorNote')}
          />
        ) : null}
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          className="config-form"
          hidden={!current && !editing}
          data-testid="config-form"
        >
          <Tabs
            activeKey={part}
            onChange={(key) => setPart(key as ConfigPart)}
            items={sections.map((section) => ({
              key: section.part,
              label: t(`config.part.${section.part}`),
              forceRender: true,
              children: (
                <div className="config-groups">
                  {section.groups.map(({ group, fields }) => (
                    <Card
                      key={group}
                      size="small"
                      type="inner"
                      title={t(`config.group.${group}`)}
                      className="config-group"
                      data-testid={`config-group-${section.part}-${group}`}
                    >
                      <Row gutter={16}>
                        {fields.map((field) => {
                          const locked = role === 'operator' && field.writeRole === 'manufacturer';
                          return (
                            <Col xs={24} md={12} xl={8} key={field.key}>
                              <Form.Item
                                name={field.key}
                                label={
                                  <span className="config-label">
                                    {fieldLabel(field.key)}
                                    {locked && editing ? (
                                      <Tooltip title={t('config.manufacturerOnly')}>
                                        <LockOutlined className="lift-muted" />
                                      </Tooltip>
                                    ) : null}
                                  </span>
                                }
                                valuePropName={field.type === 'boolean' ? 'checked' : 'value'}
                                rules={[rule(field.key)]}
                                dependencies={dependenciesOf(field)}
                              >
                                {field.type === 'boolean' ? (
                                  <Switch
                                    disabled={!editing || locked}
                                    data-testid={`config-input-${field.key}`}
                                    aria-label={fieldLabel(field.key)}
                                  />
                                ) : (
                                  <FieldInput field={field} disabled={!editing || locked} />
                                )}
                              </Form.Item>
                            </Col>
                          );
                        })}
                      </Row>
                    </Card>
                  ))}
                </div>
              ),
            }))}
          />
        </Form>
      </Card>
      <Card title={t('config.history.title')} className="config-history-card">
        <ConfigHistory liftId={liftId} />
      </Card>
      <Modal
        open={review !== null}
        title={t('config.diff.title')}
        okText={t('config.send')}
        cancelText={t('common.cancel')}
        okButtonProps={{
          disabled: (review?.changes.length ?? 0) === 0 || !online,
          icon: <CloudUploadOutlined />,
          'data-testid': 'config-send',
        }}
        confirmLoading={busy === 'send'}
        onOk={() => review && void send(review.config, false)}
        onCancel={() => setReview(null)}
        width={640}
      >
        <p>{t('config.diff.text', { count: review?.changes.length ?? 0 })}</p>
        <ConfigDiffTable changes={review?.changes ?? []} testId="config-diff" />
      </Modal>
    </div>
  );
}
