import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@liftlink/protocol';
import { changeLanguage, LANGUAGE_LABELS, useLanguage } from '../lib/i18n/language.ts';

/** The language selector of both layouts; `onChanged` lets the shell save it to the profile. */
export function LanguageSelect({
  onChanged,
  className,
}: {
  onChanged?: (language: Language) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((lng) => ({
          key: lng,
          label: <span lang={lng}>{LANGUAGE_LABELS[lng]}</span>,
        })),
        onClick: ({ key }) => {
          void changeLanguage(key as Language).then(() => onChanged?.(key as Language));
        },
      }}
    >
      <Button
        type="text"
        className={className}
        icon={<GlobalOutlined />}
        aria-label={t('layout.language')}
        data-testid="language-select"
      >
        <span className="language-select-label">{LANGUAGE_LABELS[language]}</span>
      </Button>
    </Dropdown>
  );
}
