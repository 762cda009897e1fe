import { useEffect } from 'react';
import { Checkbox, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { APPROVABLE_CLASSES, approvalClassesSchema, type CommandClass, type OrgView } from '@liftlink/protocol';
import { useAccess } from '../../../lib/access.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { OrgSettingsModal } from './org-settings-modal.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useOrgApprovalClasses, useUpdateApprovalClasses } from '../api/system-api.ts';

/** APPROVABLE_CLASSES holds these (the others are open to anyone who may control the lift). */
type ApprovableClass = Exclude<CommandClass, 'stop' | 'setting'>;

interface Values {
  approvalClasses: CommandClass[];
}

/**
 * Which command classes of an organization need a second person's approval
 * (docs/remote-control.md, "Two-person approval"). Editable with `org.edit`; shown read-only
 * to a user who may only look at organizations.
 */
export function OrgApprovalModal({ org, onClose }: { org: OrgView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const can = useAccess();
  const editable = can('org.edit');
  const [form] = Form.useForm<Values>();
  const current = useOrgApprovalClasses(org?.id ?? null);
  const update = useUpdateApprovalClasses();
  const submit = useFormSubmit(
    form,
    (values: Values) =>
      update.mutateAsync({ orgId: org?.id ?? '', approvalClasses: values.approvalClasses }),
    onClose,
  );
  const loaded = current.data?.orgId === org?.id ? current.data : undefined;

  // The form follows the server's answer; a refetch after saving shows what was stored.
  useEffect(() => {
    if (loaded) form.setFieldsValue({ approvalClasses: loaded.approvalClasses });
  }, [loaded, form]);

  const loadError = current.isError ? errorMessage(current.error) : null;

  return (
    <OrgSettingsModal
      open={org !== null}
      title={t('system.org.approvalOf', { name: org?.name ?? '' })}
      testId="org-approval"
      hint={t('system.org.approvalHint')}
      editable={editable}
      loaded={!!loaded}
      failed={current.isError}
      loadError={loadError}
      saving={update.isPending}
      skeletonRows={3}
      onSave={() => void submit()}
      onClose={onClose}
    >
      <Form form={form} layout="vertical" style={loaded ? undefined : { display: 'none' }}>
        <Form.Item name="approvalClasses" rules={[zodRule(approvalClassesSchema)]}>
          {/* One class a line: long labels (ru-RU) wrap within a phone's width. */}
          <Checkbox.Group
            disabled={!editable}
            data-testid="org-approval-classes"
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
          >
            {APPROVABLE_CLASSES.map((cls) => (
              <Checkbox key={cls} value={cls} data-testid={`org-approval-class-${cls}`}>
                {t(`system.org.approvalClass.${cls as ApprovableClass}`)}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      </Form>
      {!editable && loaded ? (
        <Typography.Text type="secondary" data-testid="org-approval-readonly">
          {t('system.org.approvalReadOnly')}
        </Typography.Text>
      ) : null}
    </OrgSettingsModal>
  );
}
