import type { ReactNode } from 'react';
import { Button, Divider, Radio, Switch, Tooltip } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { LayoutSettings } from '@liftlink/protocol';
import { tx } from '../lib/i18n/i18n.ts';
import {
  resetLayoutSettings,
  updateLayoutSettings,
  useLayoutSettings,
} from '../lib/layout-settings.ts';

/** Preset primary colours; red (#F5222D) is the product default. */
export const PRIMARY_COLORS = [
  { key: 'dust', color: '#F5222D' },
  { key: 'volcano', color: '#FA541C' },
  { key: 'sunset', color: '#FAAD14' },
  { key: 'cyan', color: '#13C2C2' },
  { key: 'green', color: '#52C41A' },
  { key: 'daybreak', color: '#1890FF' },
  { key: 'geekblue', color: '#2F54EB' },
  { key: 'purple', color: '#722ED1' },
] as const;

type ChoiceSetting = 'navTheme' | 'layout' | 'contentWidth';
const CHOICES: Record<ChoiceSetting, readonly string[]> = {
  navTheme: ['dark', 'light'],
  layout: ['sidemenu', 'topmenu'],
  contentWidth: ['Fluid', 'Fixed'],
};
type BooleanSetting = 'fixedHeader' | 'fixSiderbar' | 'autoHideHeader' | 'colorWeak' | 'multiTab';
const SWITCHES: BooleanSetting[] = [
  'fixedHeader',
  'fixSiderbar',
  'autoHideHeader',
  'colorWeak',
  'multiTab',
];

function SettingRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="setting-row">
      <span className="setting-row-label">{label}</span>
      <span className="setting-row-control">{children}</span>
    </div>
  );
}

function ChoiceRow({ setting, settings }: { setting: ChoiceSetting; settings: LayoutSettings }) {
  return (
    <SettingRow label={tx(`settings.${setting}`)}>
      <Radio.Group
        optionType="button"
        value={settings[setting]}
        onChange={(e) => updateLayoutSettings({ [setting]: e.target.value as string })}
        options={CHOICES[setting].map((value) => ({
          value,
          label: tx(`settings.${setting}.${value}`),
        }))}
        data-testid={`setting-${setting}`}
      />
    </SettingRow>
  );
}

/** The stored layout settings (spec section 3): used by the settings drawer and the "custom" page. */
export function LayoutSettingsForm() {
  const { t } = useTranslation();
  const settings = useLayoutSettings();
  const primary = settings.primaryColor.toUpperCase();
  return (
    <div className="layout-settings-form" data-testid="layout-settings">
      <ChoiceRow setting="navTheme" settings={settings} />
      <SettingRow label={t('settings.primaryColor')}>
        <span className="color-swatches">
          {PRIMARY_COLORS.map(({ key, color }) => (
            <Tooltip key={key} title={t(`settings.color.${key}`)}>
              <button
                type="button"
                className="color-swatch"
                style={{ background: color }}
                aria-label={t(`settings.color.${key}`)}
                aria-pressed={primary === color}
                onClick={() => updateLayoutSettings({ primaryColor: color })}
              >
                {primary === color ? <CheckOutlined /> : null}
              </button>
            </Tooltip>
          ))}
        </span>
      </SettingRow>
      <Divider />
      <ChoiceRow setting="layout" settings={settings} />
      <ChoiceRow setting="contentWidth" settings={settings} />
      {SWITCHES.map((key) => (
        <SettingRow key={key} label={t(`settings.${key}`)}>
          <Switch
            size="small"
            checked={settings[key]}
            disabled={key === 'autoHideHeader' && !settings.fixedHeader}
            onChange={(checked) => updateLayoutSettings({ [key]: checked })}
            aria-label={t(`settings.${key}`)}
            data-testid={`setting-${key}`}
          />
        </SettingRow>
      ))}
      <Divider />
      <Button block onClick={resetLayoutSettings}>
        {t('settings.reset')}
      </Button>
    </div>
  );
}
