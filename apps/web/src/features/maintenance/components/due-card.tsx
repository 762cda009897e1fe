import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DueList } from './due-list.tsx';

/** The workplace's "Overdue maintenance" card: overdue and due-soon lifts in the user's reach. */
export default function DueCard() {
  const { t } = useTranslation();
  return (
    <Card
      title={t('maintenance.dueCard')}
      extra={<Link to="/lift/maintenance">{t('maintenance.dueAll')}</Link>}
      className="maintenance-due-card"
      data-testid="maintenance-due-card"
    >
      <DueList limit={8} />
    </Card>
  );
}
