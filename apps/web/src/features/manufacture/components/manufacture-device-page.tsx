import { useState } from 'react';
import { Button, Card, Col, Row, Tabs } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { Access } from '../../../lib/access.tsx';
import { BenchProvider } from './bench-context.tsx';
import { ChannelsTab } from './channels-tab.tsx';
import { ConfigLogsTab } from './config-logs-tab.tsx';
import { ConfigTab } from './config-tab.tsx';
import { ConversionTab } from './conversion-tab.tsx';
import { DevicePanel } from './device-panel.tsx';
import { DocumentsDrawer } from './documents-drawer.tsx';
import { FieldPortTab } from './field-port-tab.tsx';
import { SerialPanel } from './serial-panel.tsx';
import './manufacture.css';

/**
 * Device management (`/manufacture/device`, spec sections 2, 7, 8): the factory bench.
 * Connect a controller by serial cable (Web Serial or the plugin), read its handshake,
 * give it a device number and IoT credentials, configure it, and watch it come online.
 */
export default function ManufactureDevicePage() {
  const { t } = useTranslation();
  const [docs, setDocs] = useState(false);
  return (
    <BenchProvider>
      <PageContainer
        title={t('menu.equipment.device')}
        extra={
          <Access check="document.query">
            <Button
              icon={<FileTextOutlined />}
              onClick={() => setDocs(true)}
              data-testid="open-documents"
            >
              {t('manufacture.docs.title')}
            </Button>
          </Access>
        }
      >
        <Row gutter={[16, 16]} className="bench">
          <Col xs={24} lg={10} xl={9} xxl={8}>
            <Row gutter={[16, 16]}>
              <Col span={24}>
                <SerialPanel />
              </Col>
              <Col span={24}>
                <DevicePanel />
              </Col>
            </Row>
          </Col>
          <Col xs={24} lg={14} xl={15} xxl={16}>
            <Card data-testid="settings-card">
              <Tabs
                items={[
                  { key: 'config', label: t('manufacture.tabs.config'), children: <ConfigTab /> },
                  {
                    key: 'channels',
                    label: t('manufacture.tabs.channels'),
                    children: <ChannelsTab />,
                  },
                  {
                    key: 'conversion',
                    label: t('manufacture.tabs.conversion'),
                    children: <ConversionTab />,
                  },
                  {
                    key: 'port',
                    label: t('manufacture.tabs.fieldPort'),
                    children: <FieldPortTab />,
                  },
                  { key: 'logs', label: t('manufacture.tabs.logs'), children: <ConfigLogsTab /> },
                ]}
              />
            </Card>
          </Col>
        </Row>
        <DocumentsDrawer open={docs} onClose={() => setDocs(false)} />
      </PageContainer>
    </BenchProvider>
  );
}
