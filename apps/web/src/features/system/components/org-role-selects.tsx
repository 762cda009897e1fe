import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../../lib/labels.ts';
import { useOrgs, useRoles } from '../api/system-api.ts';

type Props = Omit<SelectProps, 'options' | 'loading'> & {
  /** Loads the list (while the dialog or drawer holding the field is open). */
  enabled: boolean;
};

/** A role picker: built-in names translated. Form.Item passes value and onChange through. */
export function RoleSelect({ enabled, ...props }: Props) {
  const roles = useRoles(enabled);
  return (
    <Select
      {...props}
      loading={roles.isPending}
      options={(roles.data?.list ?? []).map((role) => ({
        value: role.id,
        label: roleLabel(role.name),
      }))}
    />
  );
}

/**
 * An organization picker: name and kind. Searchable by that text, as an installation soon has
 * more organizations than a dropdown shows at once.
 */
export function OrgSelect({ enabled, ...props }: Props) {
  const { t } = useTranslation();
  const orgs = useOrgs(enabled);
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      {...props}
      loading={orgs.isPending}
      options={(orgs.data?.list ?? []).map((org) => ({
        value: org.id,
        label: `${org.name} · ${t(`system.org.kind.${org.kind}`)}`,
      }))}
    />
  );
}
