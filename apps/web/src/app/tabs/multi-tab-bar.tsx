import { Dropdown, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TabsApi } from './use-tabs.ts';

/** The tab bar of spec section 2, with its context menu (close current, right, left, all). */
export function MultiTabBar({
  tabs,
  titleOf,
}: {
  tabs: TabsApi;
  titleOf: (key: string) => string;
}) {
  const { t } = useTranslation();
  const menuFor = (key: string) => ({
    items: [
      { key: 'close', label: t('tabs.closeCurrent') },
      { key: 'closeRight', label: t('tabs.closeRight') },
      { key: 'closeLeft', label: t('tabs.closeLeft') },
      { key: 'closeAll', label: t('tabs.closeAll') },
    ],
    onClick: ({
      key: action,
      domEvent,
    }: {
      key: string;
      domEvent: { stopPropagation(): void };
    }) => {
      domEvent.stopPropagation();
      if (action === 'close') tabs.close(key);
      else if (action === 'closeRight') tabs.closeRight(key);
      else if (action === 'closeLeft') tabs.closeLeft(key);
      else tabs.closeAll(key);
    },
  });

  return (
    <div className="multi-tab-bar" data-testid="multi-tab">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={tabs.state.activeKey ?? undefined}
        onChange={(key) => tabs.activate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') tabs.close(key);
        }}
        items={tabs.state.tabs.map((tab) => ({
          key: tab.key,
          closable: true,
          label: (
            <Dropdown trigger={['contextMenu']} menu={menuFor(tab.key)}>
              <span className="multi-tab-title" data-tab={tab.key}>
                {titleOf(tab.key)}
              </span>
            </Dropdown>
          ),
        }))}
      />
    </div>
  );
}
