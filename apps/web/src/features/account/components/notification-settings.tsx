import { useEffect } from 'react';
import { App, Button, Form, InputNumber, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  notificationSettingsSchema,
  type NotificationSettings as Settings,
} from '@liftlink/protocol';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { useNotificationSettings, useUpdateNotificationSettings } from '../api/account-api.ts';

const SWITCHES = ['mailFaults', 'mailHelp', 'mailOffline', 'mailAlarmDevice', 'mailMaintenance', 'mailReport'] as const;
const minutes = notificationSettingsSchema.shape.offlineMinutes;

/** Which lift alerts reach the user by mail. */
export function NotificationSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const [form] = Form.useForm<Settings>();
  const mailOffline = Form.useWatch('mailOffline', form);

  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  if (settings.isPending) return <Skeleton active />;
  const liftIds = settings.data?.liftIds ?? [];

  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: '0 0 auto' }}
      style={{ maxWidth: 640 }}
      onFinish={(values) =>
        update.mutate(
          { ...values, liftIds },
          {
            onSuccess: () => void message.success(t('common.saved')),
            onError: (error) => {
              if (!applyServerIssues(form, error)) {
                const text = errorMessage(error);
                if (text) void message.error(text);
              }
            },
          },
        )
      }
      data-testid="notification-settings"
    >
      {SWITCHES.map((key) => (
        <div key={key} className="setting-row">
          <div>
            <div>{t(`account.notify.${key}`)}</div>
            <Typography.Text type="secondary">{t(`account.notify.${key}Help`)}</Typography.Text>
          </div>
          <Form.Item name={key} valuePropName="checked" noStyle>
            <Switch aria-label={t(`account.notify.${key}`)} />
          </Form.Item>
        </div>
      ))}
      <Form.Item
        name="offlineMinutes"
        label={t('account.notify.offlineMinutes')}
        style={{ marginTop: 16 }}
      >
        <InputNumber
          min={minutes.minValue ?? 5}
          max={minutes.maxValue ?? 10_080}
          disabled={!mailOffline}
        />
      </Form.Item>
      <Typography.Paragraph type="secondary">
        {liftIds.length > 0
          ? t('account.notify.someLifts', { count: liftIds.length })
          : t('account.notify.allLifts')}
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        {t('common.save')}
      </Button>
    </Form>
  );
}
