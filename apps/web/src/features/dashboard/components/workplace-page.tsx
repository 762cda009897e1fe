import type { ComponentType } from 'react';
import { Avatar, Button, Card, Col, Descriptions, Row } from 'antd';
import { CloudOutlined, TeamOutlined, ToolOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Access } from '../../../lib/access.tsx';
import { greetingText } from '../../../lib/greeting.ts';
import { roleLabel } from '../../../lib/labels.ts';
import { useSession } from '../../../lib/session.ts';
import { FleetOverview } from './fleet-overview.tsx';

/**
 * The workplace: greeting by time of day, the user's name and role, shortcuts by permission;
 * other features' panels (`panels`, composed in app/routing/pages.ts) before the fleet overview.
 */
export default function WorkplacePage({ panels = [] }: { panels?: readonly ComponentType[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { info } = useSession();
  const name = info.name || info.username;
  return (
    <div className="workplace-page">
      <Card style={{ marginBottom: 16 }}>
        <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap' }}>
          <Avatar size={64} src={info.avatar || undefined} icon={<UserOutlined />} />
          <div style={{ flex: 1, minWidth: 200 }}>
            {/* antd's Title and secondary Text, drawn in CSS: Typography stays out of the shell. */}
            <h4 className="greeting-title" data-testid="greeting">
              {t('workplace.greeting', { greeting: greetingText(), name })}
            </h4>
            <span className="text-secondary">
              {roleLabel(info.role.name)}
              {info.organization ? ` · ${info.organization.name}` : ''}
            </span>
          </div>
        </div>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('workplace.shortcuts')} data-testid="shortcuts">
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
              <Access check="lift.query">
                <Button icon={<CloudOutlined />} onClick={() => void navigate('/lift/list')}>
                  {t('menu.cloud.liftList')}
                </Button>
              </Access>
              <Access check="manufacture.add">
                <Button
                  icon={<ToolOutlined />}
                  onClick={() => void navigate('/manufacture/device')}
                  data-testid="shortcut-provision"
                >
                  {t('workplace.provision')}
                </Button>
              </Access>
              <Access check="user.add">
                <Button
                  type="primary"
                  icon={<TeamOutlined />}
                  onClick={() => void navigate('/system/users')}
                  data-testid="shortcut-add-user"
                >
                  {t('workplace.addUser')}
                </Button>
              </Access>
              <Button icon={<UserOutlined />} onClick={() => void navigate('/account/center')}>
                {t('menu.account.center')}
              </Button>
            </div>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('workplace.account')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('account.username')}>{info.username}</Descriptions.Item>
              <Descriptions.Item label={t('account.role')}>
                {roleLabel(info.role.name)}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.organization')}>
                {info.organization?.name ?? t('common.none')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        {panels.map((Panel, index) => (
          <Col key={index} xs={24}>
            <Panel />
          </Col>
        ))}
      </Row>
      <FleetOverview />
    </div>
  );
}
