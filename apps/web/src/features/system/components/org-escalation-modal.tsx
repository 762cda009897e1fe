import { useEffect } from 'react';
import { Button, Form, InputNumber, Select, Typography } from 'antd';
import { ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  ESCALATION_ACK_MINUTES_MAX,
  ESCALATION_ACK_MINUTES_MIN,
  INCIDENT_PRIORITIES,
  escalationPolicyInputSchema,
  type IncidentPriority,
  type OrgView,
} from '@liftlink/protocol';
import { useAccess } from '../../../lib/access.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { OrgSettingsModal } from './org-settings-modal.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useOrgEscalation, useUpdateEscalation } from '../api/escalation-api.ts';

interface Values {
  onCall: string[];
  managerId?: string | null;
  ackMinutes: number;
  ackMinutesByPriority?: Partial<Record<IncidentPriority, number | null>>;
}

const fields = escalationPolicyInputSchema.shape;
const minuteRule = zodRule(fields.ackMinutes);
/** A priority's own time may stay empty (the general time applies). */
const priorityMinuteRule = zodRule(fields.ackMinutes.optional());

/**
 * An organization's on-call list (docs/service.md, "Escalation"): who is asked in turn to
 * acknowledge an incident nobody took, then the manager, and how long each one has. Editable
 * with `org.edit`; shown read-only to a user who may only look at organizations.
 */
export function OrgEscalationModal({ org, onClose }: { org: OrgView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const can = useAccess();
  const editable = can('org.edit');
  const [form] = Form.useForm<Values>();
  const current = useOrgEscalation(org?.id ?? null);
  const update = useUpdateEscalation();
  const submit = useFormSubmit(
    form,
    (values: Values) =>
      update.mutateAsync({
        orgId: org?.id ?? '',
        onCall: values.onCall ?? [],
        managerId: values.managerId ?? null,
        ackMinutes: values.ackMinutes,
        // An emptied field takes the general time.
        ackMinutesByPriority: Object.fromEntries(
          Object.entries(values.ackMinutesByPriority ?? {}).filter(
            ([, v]) => typeof v === 'number',
          ),
        ),
      }),
    onClose,
  );
  const loaded = current.data?.orgId === org?.id ? current.data : undefined;
  const onCall = Form.useWatch('onCall', form) ?? [];
  const nameOf = (id: string) => loaded?.candidates.find((c) => c.id === id)?.name ?? id;
  const options = (loaded?.candidates ?? []).map((c) => ({
    value: c.id,
    label: c.name === c.username ? c.name : `${c.name} (${c.username})`,
  }));

  // The form follows the server's answer; a refetch after saving shows what was stored.
  useEffect(() => {
    if (loaded)
      form.setFieldsValue({
        onCall: loaded.onCall,
        managerId: loaded.managerId,
        ackMinutes: loaded.ackMinutes,
        ackMinutesByPriority: loaded.ackMinutesByPriority,
      });
  }, [loaded, form]);

  const moveUp = (index: number) => {
    const next = [...onCall];
    [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
    form.setFieldValue('onCall', next);
  };
  const loadError = current.isError ? errorMessage(current.error) : null;

  return (
    <OrgSettingsModal
      open={org !== null}
      title={t('escalation.titleOf', { name: org?.name ?? '' })}
      testId="org-escalation"
      hint={t('escalation.hint')}
      editable={editable}
      loaded={!!loaded}
      failed={current.isError}
      loadError={loadError}
      saving={update.isPending}
      skeletonRows={4}
      onSave={() => void submit()}
      onClose={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        disabled={!editable}
        style={loaded ? undefined : { display: 'none' }}
      >
        <Form.Item
          name="onCall"
          label={t('escalation.onCall')}
          extra={t('escalation.onCallExtra')}
          rules={[zodRule(fields.onCall)]}
        >
          <Select
            mode="multiple"
            options={options}
            optionFilterProp="label"
            placeholder={t('escalation.onCallPlaceholder')}
            data-testid="org-escalation-oncall"
          />
        </Form.Item>
        {onCall.length ? (
          <ol
            className="escalation-order"
            data-testid="org-escalation-order"
            style={{ paddingInlineStart: 20 }}
          >
            {onCall.map((id, index) => (
              <li key={id} data-testid="org-escalation-person">
                <span style={{ overflowWrap: 'anywhere' }}>{nameOf(id)}</span>
                {editable && index > 0 ? (
                  <Button
                    size="small"
                    type="text"
                    icon={<ArrowUpOutlined />}
                    aria-label={t('escalation.moveUp', { name: nameOf(id) })}
                    onClick={() => moveUp(index)}
                  />
                ) : null}
              </li>
            ))}
          </ol>
        ) : null}
        <Form.Item
          name="managerId"
          label={t('escalation.manager')}
          extra={t('escalation.managerExtra')}
        >
          <Select
            allowClear
            options={options}
            optionFilterProp="label"
            placeholder={t('escalation.noManager')}
            data-testid="org-escalation-manager"
          />
        </Form.Item>
        <Form.Item
          name="ackMinutes"
          label={t('escalation.ackMinutes')}
          extra={t('escalation.ackMinutesExtra', {
            min: ESCALATION_ACK_MINUTES_MIN,
            max: ESCALATION_ACK_MINUTES_MAX,
          })}
          rules={[minuteRule]}
        >
          <InputNumber
            addonAfter={t('escalation.minutes')}
            data-testid="org-escalation-minutes"
            style={{ width: 200 }}
          />
        </Form.Item>
        <Typography.Text strong>{t('escalation.byPriority')}</Typography.Text>
        <Typography.Paragraph type="secondary">
          {t('escalation.byPriorityExtra')}
        </Typography.Paragraph>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12 }}>
          {INCIDENT_PRIORITIES.map((p) => (
            <Form.Item
              key={p}
              name={['ackMinutesByPriority', p]}
              label={t(`escalation.priority.${p}`)}
              rules={[priorityMinuteRule]}
              style={{ marginBottom: 8 }}
            >
              <InputNumber
                addonAfter={t('escalation.minutes')}
                data-testid={`org-escalation-minutes-${p}`}
                style={{ width: 150 }}
              />
            </Form.Item>
          ))}
        </div>
      </Form>
      {!editable && loaded ? (
        <Typography.Text type="secondary" data-testid="org-escalation-readonly">
          {t('escalation.readOnly')}
        </Typography.Text>
      ) : null}
    </OrgSettingsModal>
  );
}
