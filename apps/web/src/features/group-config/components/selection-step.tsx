import { Alert, Button, Col, Form, Input, Row, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { groupConfigSelectionSchema, type GroupConfigOptions } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { translateIssue } from '../../../lib/i18n/i18n.ts';
import { invalidDeviceNos, selectionOf, type SelectionValues } from '../model/group-config.ts';
import { StepFooter } from './step-footer.tsx';

/** Step 1: which lifts, by kind, firmware, organization, site or pasted device numbers. */
export function SelectionStep({
  form,
  options,
  loading,
  error,
  onRetry,
  onNext,
}: {
  form: FormInstance<SelectionValues>;
  options: GroupConfigOptions | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const values = Form.useWatch([], form) ?? {};
  const selection = selectionOf(values);
  const checked = groupConfigSelectionSchema.safeParse(selection);
  const issue = checked.success ? null : (checked.error.issues[0]?.message ?? 'validation.invalid');
  const multi = (
    name: keyof SelectionValues,
    label: string,
    items: { value: string; label: string }[],
  ) => (
    <Col xs={24} md={12}>
      <Form.Item name={name} label={label}>
        <Select
          mode="multiple"
          allowClear
          loading={loading}
          placeholder={t('groupConfig.select.any')}
          options={items}
          optionFilterProp="label"
          data-testid={`group-select-${name}`}
          aria-label={label}
        />
      </Form.Item>
    </Col>
  );
  return (
    <Form form={form} layout="vertical" requiredMark={false} data-testid="group-selection">
      {error ? <LoadError error={error} onRetry={onRetry} className="group-config-alert" /> : null}
      <Row gutter={16}>
        {multi(
          'kinds',
          t('groupConfig.select.kinds'),
          (options?.kinds ?? []).map((k) => ({ value: k, label: t(`device.kind.${k}`) })),
        )}
        {multi(
          'firmware',
          t('groupConfig.select.firmware'),
          (options?.firmware ?? []).map((f) => ({ value: f, label: f })),
        )}
        {multi(
          'orgIds',
          t('groupConfig.select.orgs'),
          (options?.orgs ?? []).map((o) => ({ value: o.id, label: o.name })),
        )}
        {multi(
          'sites',
          t('groupConfig.select.sites'),
          (options?.sites ?? []).map((s) => ({ value: s, label: s })),
        )}
        <Col xs={24}>
          <Form.Item
            name="deviceNos"
            label={t('groupConfig.select.deviceNos')}
            extra={t('groupConfig.select.deviceNosHelp')}
            rules={[
              {
                // Each pasted number is checked with the shared device number schema.
                validator: async (_rule, value: string | undefined) => {
                  const bad = invalidDeviceNos(value);
                  if (bad.length)
                    throw new Error(
                      t('groupConfig.select.invalidDeviceNo', {
                        value: bad.slice(0, 3).join(', '),
                      }),
                    );
                },
              },
            ]}
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              placeholder={t('groupConfig.select.deviceNosExample')}
              data-testid="group-select-deviceNos"
            />
          </Form.Item>
        </Col>
      </Row>
      {issue && Object.keys(values).length > 0 ? (
        <Alert type="info" showIcon title={translateIssue(issue)} className="group-config-alert" />
      ) : null}
      <StepFooter>
        <Button
          type="primary"
          disabled={!checked.success}
          onClick={onNext}
          data-testid="group-next-changes"
        >
          {t('groupConfig.next')}
        </Button>
      </StepFooter>
    </Form>
  );
}
