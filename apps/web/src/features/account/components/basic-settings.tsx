import { useEffect } from 'react';
import { App, Avatar, Button, Form, Input, Select } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, profileUpdateSchema, type Language } from '@liftlink/protocol';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { changeLanguage, LANGUAGE_LABELS } from '../../../lib/i18n/language.ts';
import { isLanguage } from '../../../lib/i18n/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useUpdateProfile } from '../api/account-api.ts';

interface Values {
  name: string;
  avatar: string;
  language: Language;
}

/** Basic settings: name, avatar, language. */
export function BasicSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { info } = useSession();
  const [form] = Form.useForm<Values>();
  const avatar = Form.useWatch('avatar', form);
  const update = useUpdateProfile();

  useEffect(() => {
    form.setFieldsValue({
      name: info.name,
      avatar: info.avatar,
      language: isLanguage(info.language) ? info.language : undefined,
    });
  }, [info, form]);

  const onFinish = (values: Values) =>
    update.mutate(values, {
      onSuccess: () => {
        if (values.language) void changeLanguage(values.language);
        void message.success(t('common.saved'));
      },
      onError: (error) => {
        if (!applyServerIssues(form, error)) {
          const text = errorMessage(error);
          if (text) void message.error(text);
        }
      },
    });

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      style={{ maxWidth: 480 }}
      onFinish={onFinish}
      data-testid="basic-settings"
    >
      <Form.Item
        name="name"
        label={t('account.name')}
        rules={[zodRule(profileUpdateSchema.shape.name)]}
      >
        <Input />
      </Form.Item>
      <Form.Item label={t('account.avatar')} extra={t('account.avatarHelp')}>
        <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
          <Avatar size={48} src={avatar || undefined} icon={<UserOutlined />} />
          <Form.Item name="avatar" noStyle rules={[zodRule(profileUpdateSchema.shape.avatar)]}>
            <Input placeholder={t('account.avatarPlaceholder')} />
          </Form.Item>
        </div>
      </Form.Item>
      <Form.Item name="language" label={t('layout.language')}>
        <Select options={LANGUAGES.map((lng) => ({ value: lng, label: LANGUAGE_LABELS[lng] }))} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        {t('common.save')}
      </Button>
    </Form>
  );
}
