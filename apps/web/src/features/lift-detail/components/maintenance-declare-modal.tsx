import { DatePicker, Form, Input, Modal } from 'antd';
import type { RuleObject, RuleRender } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { MAINTENANCE_WINDOW_MAX_DAYS, maintenanceDeclareSchema } from '@liftlink/protocol';
import { translateIssue } from '../../../lib/i18n/i18n.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { useResetOnOpen } from '../../../lib/use-reset-on-open.ts';
import { useDeclareWindow } from '../api/maintenance-api.ts';

interface Values {
  startsAt: Dayjs | null;
  endsAt: Dayjs | null;
  reason: string;
}

/**
 * The declaration as the server takes it. The start shown when the dialog opened means
 * "now" until the user picks another: left out, so a form filled in slowly is not refused
 * as starting in the past.
 */
function declaration(values: Partial<Values>, openedAt: Dayjs | null, liftId: string) {
  const start =
    values.startsAt && !(openedAt && values.startsAt.isSame(openedAt)) ? values.startsAt : null;
  return {
    liftIds: [liftId],
    ...(start ? { startsAt: start.toISOString() } : {}),
    endsAt: values.endsAt ? values.endsAt.toISOString() : '',
    reason: (values.reason ?? '').trim(),
  };
}

/**
 * A field's rule from the protocol's whole declaration schema, so the checks between
 * fields (end after start, at most 30 days, start not in the past) show on their field.
 */
function declareRule(field: keyof Values, openedAt: Dayjs | null, liftId: string): RuleRender {
  return ({ getFieldsValue }): RuleObject => ({
    validator: async () => {
      const values = getFieldsValue() as Partial<Values>;
      // Each field is judged on its own: an empty reason must not hide a wrong end.
      const input = declaration(
        field === 'reason' ? values : { ...values, reason: values.reason?.trim() || '-' },
        openedAt,
        liftId,
      );
      const result = maintenanceDeclareSchema.safeParse(
        field === 'reason'
          ? { ...input, endsAt: input.endsAt || dayjs().add(1, 'hour').toISOString() }
          : input,
      );
      if (result.success) return;
      const issue = result.error.issues.find((i) => i.path[0] === field);
      if (!issue) return;
      const empty = field === 'endsAt' && !values.endsAt;
      throw new Error(translateIssue(empty ? 'validation.required' : issue.message));
    },
  });
}

/**
 * Declares a maintenance window on one lift: start (now unless picked), end and reason.
 * Open while `openedAt` is set: when the user asked for it, the start it shows at first.
 */
export function MaintenanceDeclareModal({
  liftId,
  openedAt,
  onClose,
}: {
  liftId: string;
  openedAt: Dayjs | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const declare = useDeclareWindow(liftId);

  useResetOnOpen(openedAt, () => {
    form.resetFields();
    form.setFieldsValue({ startsAt: openedAt, endsAt: null, reason: '' });
  });

  const submit = useFormSubmit(
    form,
    async (values: Values) => {
      const { liftIds: _lifts, ...body } = declaration(values, openedAt, liftId);
      await declare.mutateAsync(body);
    },
    onClose,
    { saved: t('lift.maintenance.declared') },
  );

  const rule = (field: keyof Values) => declareRule(field, openedAt, liftId);
  return (
    <Modal
      open={openedAt !== null}
      title={t('lift.maintenance.declareTitle')}
      okText={t('lift.maintenance.submit')}
      okButtonProps={{ 'data-testid': 'maintenance-submit' }}
      cancelText={t('common.cancel')}
      confirmLoading={declare.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      data-testid="maintenance-declare-modal"
    >
      <p>{t('lift.maintenance.declareIntro')}</p>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="startsAt"
          label={t('lift.maintenance.startsAt')}
          extra={t('lift.maintenance.startsAtHint')}
          rules={[rule('startsAt')]}
          dependencies={['endsAt']}
        >
          <DatePicker showTime style={{ width: '100%' }} data-testid="maintenance-starts-at" />
        </Form.Item>
        <Form.Item
          name="endsAt"
          label={t('lift.maintenance.endsAt')}
          extra={t('lift.maintenance.endsAtHint', { days: MAINTENANCE_WINDOW_MAX_DAYS })}
          rules={[rule('endsAt')]}
          dependencies={['startsAt']}
        >
          <DatePicker showTime style={{ width: '100%' }} data-testid="maintenance-ends-at" />
        </Form.Item>
        <Form.Item name="reason" label={t('lift.maintenance.reason')} rules={[rule('reason')]}>
          <Input.TextArea
            maxLength={500}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
            data-testid="maintenance-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
