import type { ReportsKey } from './reports.zh-CN.ts';

/** ru-RU texts of the reports page; the key set is that of reports.zh-CN.ts. */
const reportsRuRU: Record<ReportsKey, string> = {
  'reports.intro':
    'Отчёты о доступности за прошлый месяц по каждой организации и объекту (PDF и CSV) формируются первого числа каждого месяца; сформировать отчёт можно и в любой момент. Чтобы получать его по почте, включите «Ежемесячный отчёт по почте» в настройках уведомлений.',
  'reports.generateTitle': 'Сформировать',
  'reports.org': 'Организация',
  'reports.site': 'Объект',
  'reports.wholeOrg': 'Вся организация',
  'reports.month': 'Месяц',
  'reports.language': 'Язык',
  'reports.generate': 'Сформировать',
  'reports.generated': 'Отчёт сформирован',
  'reports.listTitle': 'Сохранённые отчёты',
  'reports.created': 'Создан',
  'reports.createdBy': 'Кем',
  'reports.monthlyJob': 'Ежемесячная рассылка',
  'reports.download': 'Скачать',
  'reports.pdf': 'PDF',
  'reports.csv': 'CSV',
  'reports.empty': 'Отчётов пока нет: выберите организацию и месяц и нажмите «Сформировать»',
  'errors.report.notFound': 'Отчёт не найден или у вас нет к нему доступа',
  'validation.monthFuture': 'Месяц не может быть в будущем',
};
export default reportsRuRU;
