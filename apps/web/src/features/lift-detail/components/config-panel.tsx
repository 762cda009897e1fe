import { useMemo } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Modal,
  Row,
  Space,
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
import { useTranslation } from 'react-i18next';
import {
  configField,
  type ConfigPart,
  type LiftInfo,
  type PermissionCheck,
} from '@liftlink/protocol';
import { ConfigFieldInput } from '../../../components/config-field-input.tsx';
import { liftAllows } from '../../../lib/access.tsx';
import { configIssueText, configSections, fieldLabel } from '../../../lib/config-model.ts';
import { dependenciesOf, FLOW_COLORS } from '../model/config-workflow.ts';
import { ConfigDiffTable } from './config-diff.tsx';
import { ConfigHistory } from './config-history.tsx';
import { useConfigWorkflow } from './use-config-workflow.ts';

/**
 * The lift's configuration as forms generated from the protocol's CONFIG_FIELDS: running,
 * platform and housing parts, grouped. Editing is off until "Edit"; "Review and send"
 * validates with the shared rules, shows the difference, and sends; a configured lift
 * asks to confirm reconfiguration. Read from the lift, history, export and import.
 */
export function ConfigPanel({ info, online }: { info: LiftInfo; online: boolean }) {
  const { t } = useTranslation();
  const { lift } = info;
  // What this user may do with this lift, and which fields a write may touch: the server's answer.
  const can = (check: PermissionCheck) => liftAllows(lift, check);
  const role = lift.access.configRole;
  const canEdit = can('liftConfig.edit');
  const workflow = useConfigWorkflow(info);
  const { form, editing, part, busy, rule } = workflow;
  const { flow, review, importProblem } = workflow.state;
  const sections = useMemo(() => configSections(lift.floors), [lift.floors]);
  const current = info.config;

  const toolbar = (
    <Space wrap>
      <Tag color={FLOW_COLORS[flow]} data-testid="config-flow" data-flow={flow}>
        {t(`config.flow.${flow}`)}
      </Tag>
      <Tooltip title={!online ? t('config.offline') : null}>
        <Button
          icon={<CloudDownloadOutlined />}
          onClick={() => void workflow.readFromLift()}
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
          onClick={workflow.startEditing}
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
              onClick={() => void workflow.openReview()}
              disabled={!online}
              data-testid="config-review"
            >
              {t('config.review')}
            </Button>
          </Tooltip>
          <Button onClick={workflow.cancelEditing} data-testid="config-cancel">
            {t('common.cancel')}
          </Button>
        </>
      ) : null}
      {can('liftConfig.export') ? (
        <Button
          icon={<ExportOutlined />}
          onClick={workflow.exportFile}
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
            void workflow.importFile(file);
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
            closable={{ onClose: workflow.clearImportProblem }}
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
        {workflow.changedMeanwhile ? (
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
            onChange={(key) => workflow.setPart(key as ConfigPart)}
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
                                <ConfigFieldInput field={field} disabled={!editing || locked} />
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
        <ConfigHistory liftId={lift.id} />
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
        onOk={() => review && void workflow.send(review.config, false)}
        onCancel={workflow.closeReview}
        width={640}
      >
        <p>{t('config.diff.text', { count: review?.changes.length ?? 0 })}</p>
        <ConfigDiffTable changes={review?.changes ?? []} testId="config-diff" />
      </Modal>
    </div>
  );
}
