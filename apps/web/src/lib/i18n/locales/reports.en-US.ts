import type { ReportsKey } from './reports.zh-CN.ts';

/** en-US texts of the reports page; the key set is that of reports.zh-CN.ts. */
const reportsEnUS: Record<ReportsKey, string> = {
  'reports.intro':
    'Last month\'s availability reports of each organization and site (PDF and CSV) are built on the first of every month; build one now at any time. Turn on "Monthly report by mail" in your account\'s notification settings to receive it.',
  'reports.generateTitle': 'Generate now',
  'reports.org': 'Organization',
  'reports.site': 'Site',
  'reports.wholeOrg': 'Whole organization',
  'reports.month': 'Month',
  'reports.language': 'Language',
  'reports.generate': 'Generate now',
  'reports.generated': 'Report generated',
  'reports.listTitle': 'Stored reports',
  'reports.created': 'Created',
  'reports.createdBy': 'By',
  'reports.monthlyJob': 'Monthly job',
  'reports.download': 'Download',
  'reports.pdf': 'PDF',
  'reports.csv': 'CSV',
  'reports.empty': 'No reports yet: pick an organization and a month, then "Generate now"',
  'errors.report.notFound': 'The report does not exist or you may not see it',
  'validation.monthFuture': 'The month cannot be in the future',
};
export default reportsEnUS;
