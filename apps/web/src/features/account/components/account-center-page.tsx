import { Avatar, Button, Card, Col, Descriptions, Row, Tag, Typography } from 'antd';
import { SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '../../../components/page-container.tsx';
import { LANGUAGE_LABELS } from '../../../lib/i18n/language.ts';
import { isLanguage } from '../../../lib/i18n/i18n.ts';
import { roleLabel } from '../../../lib/labels.ts';
import { useSession } from '../../../lib/session.ts';
import { InviteCodeForm } from './invite-code-form.tsx';

/** The account dashboard: who I am, my role and organization (or an invite code to join one), my permissions. */
export default function AccountCenterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { info, permissions } = useSession();
  return (
    <PageContainer
      title={t('menu.account.center')}
      extra={
        <Button icon={<SettingOutlined />} onClick={() => void navigate('/account/settings/basic')}>
          {t('layout.accountSettings')}
        </Button>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card>
            <div style={{ textAlign: 'center' }}>
              <Avatar size={96} src={info.avatar || undefined} icon={<UserOutlined />} />
              <Typography.Title level={4} style={{ marginTop: 12 }} data-testid="center-name">
                {info.name || info.username}
              </Typography.Title>
              <Typography.Text type="secondary">{roleLabel(info.role.name)}</Typography.Text>
            </div>
            <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
              <Descriptions.Item label={t('account.username')}>{info.username}</Descriptions.Item>
              <Descriptions.Item label={t('account.organization')}>
                {info.organization?.name ?? t('common.none')}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.email')}>
                {info.email ?? t('account.notBound')}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.mobile')}>
                {info.mobile ?? t('account.notBound')}
              </Descriptions.Item>
              <Descriptions.Item label={t('layout.language')}>
                {isLanguage(info.language) ? LANGUAGE_LABELS[info.language] : info.language}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={16}>
          {info.organization ? null : (
            <Card
              title={t('invite.join.title')}
              style={{ marginBottom: 16 }}
              data-testid="center-join"
            >
              <InviteCodeForm />
            </Card>
          )}
          <Card title={t('account.permissions')}>
            {permissions
              .filter((p) => p.actions.length > 0)
              .map((p) => (
                <div key={p.permissionId} style={{ marginBottom: 12 }}>
                  <Typography.Text strong>{t(`permission.${p.permissionId}`)}</Typography.Text>
                  <div style={{ marginTop: 4 }}>
                    {p.actions.map((action) => (
                      <Tag key={action}>{t(`action.${action}`)}</Tag>
                    ))}
                  </div>
                </div>
              ))}
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
