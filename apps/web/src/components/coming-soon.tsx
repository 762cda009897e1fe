import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageContainer } from './page-container.tsx';

/** An honest empty state for a page whose screens arrive with the lift issues. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PageContainer title={t(titleKey as 'menu.cloud.liftList')}>
      <Card>
        <Empty description={t('placeholder.liftScreens')} />
      </Card>
    </PageContainer>
  );
}
