import { App, Button, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  BYTE_ORDERS_16,
  BYTE_ORDERS_32,
  CONVERSION_TYPES,
  MAX_CONVERSIONS,
  POLLING_CHANNELS,
  conversionTableSchema,
  registersOf,
  type ConversionEntry,
} from '@liftlink/protocol';
import { issueText } from '../model/errors.ts';
import { useBenchStep } from './bench-context.tsx';
import { ReadButton, WriteButton } from './device-buttons.tsx';

interface Values {
  entries: ConversionEntry[];
}

const NEW_ENTRY: ConversionEntry = {
  channel: 1,
  register: 0,
  type: 'uint16',
  byteOrder: 'AB',
  scale: 1,
  key: '',
};

/** Data conversion: registers of the polling channels become named fields (type, byte order, scale). */
export function ConversionTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { bench, busy, step } = useBenchStep();
  const [form] = Form.useForm<Values>();

  const read = () =>
    step('read', async () => {
      const { entries } = await bench.requireLink().readConversions();
      form.setFieldsValue({ entries });
    });

  const write = async () => {
    const entries = (form.getFieldValue('entries') as ConversionEntry[] | undefined) ?? [];
    const parsed = conversionTableSchema.safeParse(entries);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((i) => ({
          name: ['entries', ...i.path] as never,
          errors: [issueText({ message: i.message })],
        })),
      );
      return;
    }
    await step('write', async () => {
      try {
        const { count } = await bench.requireLink().writeConversions({ entries: parsed.data });
        bench.audit('writeConversions', 'ok', { count });
        void message.success(t('manufacture.conversion.saved'));
      } catch (error) {
        const issues = (
          error as { issues?: { path: string; message: string; params?: Record<string, number> }[] }
        ).issues;
        if (!issues?.length) throw error;
        form.setFields(
          issues.map((i) => ({
            name: [
              'entries',
              ...i.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
            ] as never,
            errors: [issueText(i)],
          })),
        );
      }
    });
  };

  return (
    <Form form={form} initialValues={{ entries: [] }} size="small" data-testid="conversion-tab">
      <Form.List name="entries">
        {(fields, { add, remove }) => (
          <>
            <Space wrap style={{ marginBottom: 12 }}>
              <ReadButton onClick={read} loading={busy === 'read'} />
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ ...NEW_ENTRY })}
                disabled={fields.length >= MAX_CONVERSIONS}
                data-testid="conversion-add"
              >
                {t('manufacture.conversion.add')}
              </Button>
            </Space>
            <Table
              size="small"
              rowKey="key"
              pagination={false}
              scroll={{ x: 760 }}
              dataSource={fields}
              locale={{ emptyText: t('manufacture.conversion.empty') }}
              columns={[
                {
                  title: t('manufacture.conversion.channel'),
                  width: 100,
                  render: (_, f) => (
                    <Form.Item name={[f.name, 'channel']} noStyle>
                      <Select
                        options={Array.from({ length: POLLING_CHANNELS }, (_, i) => ({
                          value: i + 1,
                          label: String(i + 1),
                        }))}
                      />
                    </Form.Item>
                  ),
                },
                {
                  title: t('manufacture.conversion.register'),
                  width: 110,
                  render: (_, f) => (
                    <Form.Item name={[f.name, 'register']} style={{ margin: 0 }}>
                      <InputNumber min={0} max={65535} style={{ width: '100%' }} />
                    </Form.Item>
                  ),
                },
                {
                  title: t('manufacture.conversion.type'),
                  width: 110,
                  render: (_, f) => (
                    <Form.Item name={[f.name, 'type']} noStyle>
                      <Select
                        options={CONVERSION_TYPES.map((c) => ({ value: c, label: c }))}
                        onChange={(type: ConversionEntry['type']) =>
                          form.setFieldValue(
                            ['entries', f.name, 'byteOrder'],
                            registersOf(type) === 2 ? 'ABCD' : 'AB',
                          )
                        }
                      />
                    </Form.Item>
                  ),
                },
                {
                  title: t('manufacture.conversion.byteOrder'),
                  width: 110,
                  render: (_, f) => (
                    <Form.Item noStyle shouldUpdate>
                      {() => {
                        const type = form.getFieldValue([
                          'entries',
                          f.name,
                          'type',
                        ]) as ConversionEntry['type'];
                        const orders = registersOf(type) === 2 ? BYTE_ORDERS_32 : BYTE_ORDERS_16;
                        return (
                          <Form.Item name={[f.name, 'byteOrder']} style={{ margin: 0 }}>
                            <Select options={orders.map((o) => ({ value: o, label: o }))} />
                          </Form.Item>
                        );
                      }}
                    </Form.Item>
                  ),
                },
                {
                  title: t('manufacture.conversion.scale'),
                  width: 110,
                  render: (_, f) => (
                    <Form.Item name={[f.name, 'scale']} style={{ margin: 0 }}>
                      <InputNumber step={0.1} style={{ width: '100%' }} />
                    </Form.Item>
                  ),
                },
                {
                  title: t('manufacture.conversion.key'),
                  render: (_, f) => (
                    <Form.Item name={[f.name, 'key']} style={{ margin: 0 }}>
                      <Input
                        placeholder={t('manufacture.conversion.keyPlaceholder')}
                        maxLength={32}
                      />
                    </Form.Item>
                  ),
                },
                {
                  width: 48,
                  render: (_, f) => (
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(f.name)}
                      aria-label={t('common.delete')}
                    />
                  ),
                },
              ]}
            />
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {t('manufacture.conversion.hint')}
            </Typography.Paragraph>
            <WriteButton onClick={write} loading={busy === 'write'} testId="conversion-save" />
          </>
        )}
      </Form.List>
    </Form>
  );
}
