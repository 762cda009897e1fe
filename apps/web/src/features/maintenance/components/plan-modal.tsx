import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  maintenancePlanSetSchema,
  PLAN_INTERVAL_DAYS_MAX,
  PLAN_INTERVAL_TRIPS_MAX,
  type MaintenancePlan,
} from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { maintenanceApi, usePlanMutation } from '../api/maintenance-api.ts';

interface PlanValues {
  intervalDays?: number | null;
  intervalTrips?: number | null;
}

const rules = {
  intervalDays: zodRule(maintenancePlanSetSchema.shape.intervalDays),
  intervalTrips: zodRule(maintenancePlanSetSchema.shape.intervalTrips),
};

/** The lift's plan: every so many days and / or trips, whichever comes first; one is needed. */
export function PlanModal({
  open,
  liftId,
  plan,
  onClose,
}: {
  open: boolean;
  liftId: string;
  plan: MaintenancePlan | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PlanValues>();
  const save = usePlanMutation(liftId, (values: PlanValues) =>
    maintenanceApi.setPlan({
      liftId,
      intervalDays: values.intervalDays ?? null,
      intervalTrips: values.intervalTrips ?? null,
    }),
  );
  return (
    <FormModal<PlanValues>
      open={open}
      title={t('maintenance.plan.title')}
      form={form}
      initialValues={{
        intervalDays: plan?.intervalDays ?? null,
        intervalTrips: plan?.intervalTrips ?? null,
      }}
      save={(values) => save.mutateAsync(values)}
      onClose={onClose}
      testId="maintenance-plan-modal"
    >
      <p className="lift-muted">{t('maintenance.plan.hint')}</p>
      <Form.Item
        name="intervalDays"
        label={t('maintenance.plan.intervalDays')}
        rules={[
          rules.intervalDays,
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              if (value == null && getFieldValue('intervalTrips') == null)
                throw new Error(t('validation.planInterval'));
            },
          }),
        ]}
        dependencies={['intervalTrips']}
      >
        <InputNumber
          size="large"
          min={1}
          max={PLAN_INTERVAL_DAYS_MAX}
          precision={0}
          inputMode="numeric"
          style={{ width: '100%' }}
          suffix={t('maintenance.plan.days')}
          data-testid="maintenance-plan-days-input"
        />
      </Form.Item>
      <Form.Item
        name="intervalTrips"
        label={t('maintenance.plan.intervalTrips')}
        rules={[rules.intervalTrips]}
      >
        <InputNumber
          size="large"
          min={1}
          max={PLAN_INTERVAL_TRIPS_MAX}
          precision={0}
          inputMode="numeric"
          style={{ width: '100%' }}
          suffix={t('maintenance.plan.trips')}
          data-testid="maintenance-plan-trips-input"
        />
      </Form.Item>
    </FormModal>
  );
}
