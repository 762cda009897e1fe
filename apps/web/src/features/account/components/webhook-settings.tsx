import { useState } from 'react';
import {
  App,
  Button,
  Checkbox,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookView,
} from '@liftlink/protocol';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/webhooks-api.ts';

const TIME = 'YYYY-MM-DD HH:mm:ss';
const STATE_COLOR = { pending: 'orange', delivered: 'green', failed: 'red' } as const;

interface NewEndpoint {
  url: string;
  description?: string;
  eventTypes: WebhookEventType[];
}

/**
 * The organization's webhooks (docs/webhooks.md): endpoints with their events, a secret shown
 * once (after adding or replacing it), a test send that shows the receiver's answer, and each
 * endpoint's delivery log. Shown to users who may edit their lifts' configuration.
 */
export function WebhookSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useWebhooks();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<WebhookView | null>(null);
  const [form] = Form.useForm<NewEndpoint>();
  const eventLabel = (type: string) => t(`webhooks.event.${type}` as 'webhooks.event.alert.raised');

  const submit = (values: NewEndpoint) =>
    create.mutate(values, {
      onSuccess: (created) => {
        setAdding(false);
        form.resetFields();
        setSecret(created.secret);
      },
      onError: (error) => {
        if (!applyServerIssues(form, error))
          form.setFields([{ name: 'url', errors: [errorMessage(error) ?? ''] }]);
      },
    });

  const sendTest = (w: WebhookView) =>
    test.mutate(w.id, {
      onSuccess: (d) => {
        if (d.state === 'delivered')
          void message.success(t('webhooks.testDelivered', { code: d.lastStatusCode ?? '' }));
        else
          void message.warning(
            t('webhooks.testFailed', {
              reason: d.lastStatusCode ?? d.lastError ?? t('webhooks.noAnswer'),
            }),
          );
      },
    });

  return (
    <div data-testid="webhook-settings">
      <Typography.Paragraph type="secondary">{t('webhooks.intro')}</Typography.Paragraph>
      <Button
        type="primary"
        onClick={() => setAdding(true)}
        style={{ marginBottom: 16 }}
        data-testid="webhook-add"
      >
        {t('webhooks.add')}
      </Button>
      <Table<WebhookView>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('webhooks.empty') }}
        scroll={{ x: true }}
        columns={[
          {
            title: t('webhooks.url'),
            render: (_, w) => (
              <>
                <Typography.Text code>{w.url}</Typography.Text>
                {w.description && (
                  <div>
                    <Typography.Text type="secondary">{w.description}</Typography.Text>
                  </div>
                )}
              </>
            ),
          },
          {
            title: t('webhooks.events'),
            render: (_, w) => w.eventTypes.map((e) => <Tag key={e}>{eventLabel(e)}</Tag>),
          },
          {
            title: t('webhooks.enabled'),
            render: (_, w) => (
              <Switch
                checked={w.enabled}
                loading={update.isPending && update.variables?.id === w.id}
                aria-label={t('webhooks.enabled')}
                onChange={(enabled) => update.mutate({ id: w.id, enabled })}
              />
            ),
          },
          {
            title: t('webhooks.secret'),
            render: (_, w) => <Typography.Text code>{`${w.secretPrefix}…`}</Typography.Text>,
          },
          {
            title: t('webhooks.actions'),
            render: (_, w) => (
              <Space wrap size={4}>
                <Button
                  size="small"
                  loading={test.isPending && test.variables === w.id}
                  onClick={() => sendTest(w)}
                  data-testid={`webhook-test-${w.id}`}
                >
                  {t('webhooks.test')}
                </Button>
                <Button size="small" onClick={() => setLogOf(w)}>
                  {t('webhooks.log')}
                </Button>
                <Popconfirm
                  title={t('webhooks.rotateConfirm')}
                  onConfirm={() => rotate.mutate(w.id, { onSuccess: (r) => setSecret(r.secret) })}
                >
                  <Button size="small">{t('webhooks.rotate')}</Button>
                </Popconfirm>
                <Popconfirm
                  title={t('webhooks.deleteConfirm')}
                  onConfirm={() => remove.mutate(w.id)}
                >
                  <Button size="small" danger>
                    {t('webhooks.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />

      <Modal
        open={adding}
        title={t('webhooks.add')}
        onCancel={() => setAdding(false)}
        onOk={() => form.submit()}
        confirmLoading={create.isPending}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          initialValues={{ eventTypes: ['alert.raised'] }}
          data-testid="webhook-form"
        >
          <Form.Item
            name="url"
            label={t('webhooks.url')}
            extra={t('webhooks.urlHelp')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="description" label={t('webhooks.description')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item
            name="eventTypes"
            label={t('webhooks.events')}
            rules={[{ required: true, type: 'array', min: 1, message: t('validation.required') }]}
          >
            <Checkbox.Group
              options={WEBHOOK_EVENT_TYPES.map((e) => ({ value: e, label: eventLabel(e) }))}
            />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={secret !== null}
        title={t('webhooks.secretTitle')}
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Typography.Paragraph>{t('webhooks.secretOnce')}</Typography.Paragraph>
        <Typography.Paragraph code copyable data-testid="webhook-secret">
          {secret}
        </Typography.Paragraph>
      </Modal>

      <DeliveryLog webhook={logOf} onClose={() => setLogOf(null)} eventLabel={eventLabel} />
    </div>
  );
}

/** An endpoint's deliveries, newest first; a row opens its attempts. */
function DeliveryLog({
  webhook,
  onClose,
  eventLabel,
}: {
  webhook: WebhookView | null;
  onClose: () => void;
  eventLabel: (type: string) => string;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(webhook?.id ?? null, page);
  const answer = (code: number | null, error: string | null) =>
    code ?? error ?? t('webhooks.noAnswer');
  return (
    <Drawer
      open={webhook !== null}
      onClose={onClose}
      title={`${t('webhooks.log')}: ${webhook?.url ?? ''}`}
      size="large"
      destroyOnHidden
    >
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        loading={log.isPending && webhook !== null}
        dataSource={log.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: log.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        data-testid="webhook-log"
        expandable={{
          expandedRowRender: (d) => (
            <Table
              rowKey="at"
              size="small"
              pagination={false}
              dataSource={d.attemptLog}
              columns={[
                { title: t('webhooks.attemptAt'), render: (_, a) => dayjs(a.at).format(TIME) },
                {
                  title: t('webhooks.lastStatus'),
                  render: (_, a) => answer(a.statusCode, a.error),
                },
                { title: t('webhooks.duration'), dataIndex: 'durationMs' },
              ]}
            />
          ),
        }}
        columns={[
          { title: t('webhooks.occurredAt'), render: (_, d) => dayjs(d.occurredAt).format(TIME) },
          { title: t('webhooks.eventType'), render: (_, d) => eventLabel(d.eventType) },
          {
            title: t('webhooks.state'),
            render: (_, d) => (
              <Tag color={STATE_COLOR[d.state]}>{t(`webhooks.state.${d.state}`)}</Tag>
            ),
          },
          { title: t('webhooks.attempts'), dataIndex: 'attempts' },
          {
            title: t('webhooks.lastStatus'),
            render: (_, d) => (d.attempts ? answer(d.lastStatusCode, d.lastError) : '—'),
          },
          {
            title: t('webhooks.nextAttempt'),
            render: (_, d) => (d.nextAttemptAt ? dayjs(d.nextAttemptAt).format(TIME) : '—'),
          },
        ]}
      />
    </Drawer>
  );
}
