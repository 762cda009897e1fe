import { useRef, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { APPROVAL_WINDOW_MS, approvalRequestSchema, type CommandName } from '@liftlink/protocol';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { useResetOnOpen } from '../../../lib/use-reset-on-open.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { commandLabel } from '../model/command-label.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import type { Approvals } from './use-approvals.ts';

export interface ApprovalTarget {
  name: CommandName;
  args: Record<string, unknown>;
}

interface Props {
  /** The command to request approval for; the dialog is open while set. */
  target: ApprovalTarget | null;
  liftId: string;
  liftName: string;
  approvals: Approvals;
  onClose: () => void;
}

/**
 * The request for a second person's approval: the command and why it is needed (checked
 * by the protocol's approvalRequestSchema). One idempotency key per opening: a second
 * press of the button after a lost answer does not make a second request.
 */
export function ApprovalRequestModal({ target, liftId, liftName, approvals, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [pending, setPending] = useState(false);
  const key = useRef('');
  const open = target !== null;

  useResetOnOpen(target, () => {
    key.current = newIdempotencyKey();
    form.resetFields();
  });

  const submit = useFormSubmit(
    form,
    async ({ reason }: { reason: string }) => {
      if (!target) return;
      setPending(true);
      try {
        await approvals.request({
          liftId,
          command: target.name,
          args: target.args,
          reason: reason.trim(),
          idempotencyKey: key.current,
        });
      } finally {
        setPending(false);
      }
    },
    onClose,
    { saved: t('approval.requested') },
  );

  const label = target ? commandLabel(target.name, target.args) : '';
  return (
    <Modal
      open={open}
      title={t('approval.request.title')}
      okText={t('approval.request.submit')}
      okButtonProps={{ 'data-testid': 'approval-submit' }}
      cancelText={t('common.cancel')}
      confirmLoading={pending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      data-testid="approval-request-modal"
    >
      <p className="approval-intro" data-testid="approval-command">
        {t('approval.request.intro', {
          command: label,
          lift: liftName,
          minutes: APPROVAL_WINDOW_MS / 60_000,
        })}
      </p>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="reason"
          label={t('approval.request.reason')}
          extra={t('approval.request.reasonHint')}
          rules={[zodRule(approvalRequestSchema.shape.reason)]}
        >
          <Input.TextArea
            maxLength={300}
            showCount
            autoSize={{ minRows: 3, maxRows: 6 }}
            data-testid="approval-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
