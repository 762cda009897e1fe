/** zh-CN texts of the reports page; the reference key set of reports.*.ts. */
const reportsZhCN = {
  'reports.intro':
    '每月 1 日自动生成上月的组织和站点可用性报表（PDF 与 CSV），也可随时生成。在账户的通知设置中打开“每月报表邮件”即可收到邮件。',
  'reports.generateTitle': '立即生成',
  'reports.org': '组织',
  'reports.site': '站点',
  'reports.wholeOrg': '整个组织',
  'reports.month': '月份',
  'reports.language': '语言',
  'reports.generate': '立即生成',
  'reports.generated': '报表已生成',
  'reports.listTitle': '已保存的报表',
  'reports.created': '生成时间',
  'reports.createdBy': '生成者',
  'reports.monthlyJob': '每月自动生成',
  'reports.download': '下载',
  'reports.pdf': 'PDF',
  'reports.csv': 'CSV',
  'reports.empty': '还没有报表：选择组织和月份后点击“立即生成”',
  'errors.report.notFound': '报表不存在或您无权查看',
  'validation.monthFuture': '不能选择未来的月份',
};
export type ReportsKey = keyof typeof reportsZhCN;
export default reportsZhCN;
