import { Button, Empty, Spin } from 'antd';
import { FormOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAccess } from '../../../lib/access.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { useDueList } from '../api/maintenance-api.ts';
import { DueLines, DueTag } from './due-status.tsx';
import { liftName } from './labels.ts';
import './maintenance.css';

/**
 * Lifts overdue for maintenance or due soon (overdue first, the server's order), each a link
 * to its lift and, for those who record visits, a button straight to the visit screen.
 */
export function DueList({ limit }: { limit?: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useAccess();
  const due = useDueList();
  if (due.isPending)
    return (
      <div className="visit-loading" role="status">
        <Spin />
      </div>
    );
  if (due.isError) return <LoadError error={due.error} onRetry={() => void due.refetch()} />;
  const all = due.data.list;
  const list = limit ? all.slice(0, limit) : all;
  if (list.length === 0)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('maintenance.dueEmpty')}
        data-testid="maintenance-due-empty"
      />
    );
  return (
    <>
      <ul className="maintenance-due-list" data-testid="maintenance-due-list">
        {list.map((item) => (
          <li
            key={item.liftId}
            className="maintenance-due-item"
            data-status={item.due.status}
            data-testid="maintenance-due-item"
          >
            <Link to={`/lift/${item.liftId}`} className="maintenance-due-lift">
              <span>{liftName(item) || t('maintenance.unnamedLift')}</span>
              <span className="lift-muted">{tx(`device.kind.${item.liftKind}`)}</span>
              <DueLines due={item.due} />
            </Link>
            <span className="maintenance-actions">
              <DueTag status={item.due.status} />
              {can('incident.edit') ? (
                <Button
                  icon={<FormOutlined />}
                  onClick={() => void navigate(`/lift/maintenance/visit/${item.liftId}`)}
                  data-testid="maintenance-due-visit"
                >
                  {t('maintenance.recordVisit')}
                </Button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      {limit && all.length > limit ? (
        <div className="maintenance-actions" style={{ marginTop: 8 }}>
          <Link to="/lift/maintenance" data-testid="maintenance-due-more">
            {t('maintenance.dueMore', { count: all.length - limit })}
          </Link>
        </div>
      ) : null}
    </>
  );
}
